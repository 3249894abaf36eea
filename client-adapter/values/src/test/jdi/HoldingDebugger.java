import com.sun.jdi.Bootstrap;
import com.sun.jdi.Location;
import com.sun.jdi.Method;
import com.sun.jdi.ReferenceType;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.VMDisconnectedException;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.BreakpointEvent;
import com.sun.jdi.event.ClassPrepareEvent;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.VMDisconnectEvent;
import com.sun.jdi.request.BreakpointRequest;
import com.sun.jdi.request.ClassPrepareRequest;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A single-file program, run by tests on a JDK with {@code jdk.jdi} (so not compiled with the tests, which compile
 * against the JDK 21 runtime), that interleaves two threads of a child program exactly: runs the child under the
 * JDK's debugger interface, holds one of its threads at a breakpoint on a given line until another thread has passed
 * the child's {@code releaseHeld()}, and holds that other thread in the child's {@code awaitHeld()} until the first is
 * held. When the child declares a static {@code armHold()}, the breakpoint is set only once a thread has entered it
 * (so earlier passes of the line, by any thread, go on); else from the start. Only the first pass of the line after
 * that, by a thread of the given name, is held. Prints the child's output and exits with its status.
 *
 * <p>Used by {@code PatternStateRaceTest} ({@code dev.zstdjava.values.StaleOptionChild}),
 * {@code AdmittedDictionaryRaceTest} ({@code dev.zstdjava.values.AdmittedDictionaryChild}) and
 * {@code SnapshotDuringSwitchTest} ({@code dev.zstdjava.values.TornDecisionChild}).
 *
 * <p>Arguments: the child's Java home, its class path, the child's main class, the class to hold a thread in, the
 * line of its source to hold it at, the name and JVM signature of the method of that line, the name of the thread to
 * hold, then the child's arguments.
 */
public final class HoldingDebugger {
    private HoldingDebugger() {
    }

    public static void main(String[] args) throws Exception {
        String child = args[2];
        String holdClass = args[3];
        int line = Integer.parseInt(args[4]);
        String holdMethod = args[5];
        String signature = args[6];
        String holdThread = args[7];
        LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> a = connector.defaultArguments();
        a.get("home").setValue(args[0]);
        a.get("options").setValue("-cp " + args[1] + " --enable-native-access=ALL-UNNAMED");
        a.get("main").setValue(child + " " + String.join(" ", Arrays.asList(args).subList(8, args.length)));
        VirtualMachine vm = connector.launch(a);
        Thread out = copy(vm.process().getInputStream(), System.out);
        Thread err = copy(vm.process().getErrorStream(), System.err);
        EventRequestManager requests = vm.eventRequestManager();
        for (String name : new String[] {holdClass, child}) {
            ClassPrepareRequest prepare = requests.createClassPrepareRequest();
            prepare.addClassFilter(name);
            prepare.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            prepare.enable();
        }
        List<BreakpointRequest> holds = new ArrayList<>();
        boolean armed = true; // until the child is seen to declare armHold()
        ThreadReference held = null;
        ThreadReference waiting = null;
        boolean done = false;
        while (!done) {
            EventSet set;
            try {
                set = vm.eventQueue().remove();
            } catch (VMDisconnectedException gone) {
                break;
            }
            boolean resume = true;
            for (Event e : set) {
                if (e instanceof ClassPrepareEvent p) {
                    ReferenceType type = p.referenceType();
                    if (type.name().equals(holdClass)) {
                        for (Location l : type.locationsOfLine(line)) {
                            if (l.method().name().equals(holdMethod) && l.method().signature().equals(signature)) {
                                BreakpointRequest r = breakAt(requests, l);
                                r.setEnabled(armed);
                                holds.add(r);
                            }
                        }
                        if (holds.isEmpty()) {
                            throw new IllegalStateException("no code of " + holdClass + "." + holdMethod + signature
                                    + " at line " + line);
                        }
                    }
                    if (type.name().equals(child)) {
                        for (String m : new String[] {"armHold", "awaitHeld", "releaseHeld"}) {
                            for (Method method : type.methodsByName(m)) {
                                breakAt(requests, method.location()).enable();
                                if (m.equals("armHold")) {
                                    armed = false;
                                }
                            }
                        }
                    }
                } else if (e instanceof BreakpointEvent bp) {
                    String method = bp.location().method().name();
                    ThreadReference thread = bp.thread();
                    boolean inChild = bp.location().declaringType().name().equals(child);
                    if (!inChild && thread.name().equals(holdThread) && held == null) {
                        held = thread;
                        resume = false;
                        holds.forEach(r -> r.setEnabled(false));
                    } else if (inChild && method.equals("armHold")) {
                        armed = true;
                        holds.forEach(r -> r.setEnabled(true));
                    } else if (inChild && method.equals("awaitHeld")) {
                        waiting = thread;
                        resume = false;
                    } else if (inChild && method.equals("releaseHeld")) {
                        if (held == null) {
                            throw new IllegalStateException("no thread " + holdThread + " was held at " + holdClass
                                    + ":" + line);
                        }
                        held.resume();
                    }
                    if (held != null && waiting != null) {
                        ThreadReference w = waiting;
                        waiting = null;
                        if (w != thread) {
                            w.resume();
                        } else {
                            resume = true;
                        }
                    }
                } else if (e instanceof VMDisconnectEvent) {
                    done = true;
                }
            }
            if (resume && !done) {
                set.resume();
            }
        }
        int status = vm.process().waitFor();
        out.join();
        err.join();
        System.exit(status);
    }

    private static BreakpointRequest breakAt(EventRequestManager requests, Location l) {
        BreakpointRequest r = requests.createBreakpointRequest(l);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        return r;
    }
    private static Thread copy(InputStream in, OutputStream to) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(to);
                to.flush();
            } catch (IOException ignored) {
                // the child is gone
            }
        });
        t.start();
        return t;
    }
}
