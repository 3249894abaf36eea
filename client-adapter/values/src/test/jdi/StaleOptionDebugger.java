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
import java.util.Map;

/**
 * A single-file program, run by {@code PatternStateRaceTest} on a JDK with {@code jdk.jdi} (so not compiled with the
 * tests, which compile against the JDK 21 runtime). Runs {@code dev.zstdjava.values.StaleOptionChild} under the JDK's
 * debugger interface and interleaves its two writers exactly: the
 * thread {@code stale-writer} is held at a breakpoint on a line of {@code PatternState.store(byte[])} (after it has
 * read the option in use, before it takes the lock) until the main thread has passed
 * {@code StaleOptionChild.releaseStale()}; the main thread is held in {@code StaleOptionChild.awaitStale()} until the
 * writer is held. Prints the child's output and exits with its status.
 *
 * <p>Arguments: the child's Java home, its class path, the line of {@code PatternState.java} to hold the writer at,
 * the JVM signature of the {@code store} method of that line, and the child's argument.
 */
public final class StaleOptionDebugger {
    private static final String STATE = "dev.zstdjava.values.PatternState";
    private static final String CHILD = "dev.zstdjava.values.StaleOptionChild";

    private StaleOptionDebugger() {
    }

    public static void main(String[] args) throws Exception {
        LaunchingConnector connector = Bootstrap.virtualMachineManager().defaultConnector();
        Map<String, Connector.Argument> a = connector.defaultArguments();
        a.get("home").setValue(args[0]);
        a.get("options").setValue("-cp " + args[1] + " --enable-native-access=ALL-UNNAMED");
        a.get("main").setValue(CHILD + " " + args[4]);
        int line = Integer.parseInt(args[2]);
        String signature = args[3];
        VirtualMachine vm = connector.launch(a);
        Thread out = copy(vm.process().getInputStream(), System.out);
        Thread err = copy(vm.process().getErrorStream(), System.err);
        EventRequestManager requests = vm.eventRequestManager();
        for (String name : new String[] {STATE, CHILD}) {
            ClassPrepareRequest prepare = requests.createClassPrepareRequest();
            prepare.addClassFilter(name);
            prepare.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            prepare.enable();
        }
        ThreadReference stale = null;
        ThreadReference waiting = null;
        boolean storeBreakpoint = false;
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
                    if (type.name().equals(STATE)) {
                        for (Location l : type.locationsOfLine(line)) {
                            if (l.method().name().equals("store") && l.method().signature().equals(signature)) {
                                breakAt(requests, l);
                                storeBreakpoint = true;
                            }
                        }
                        if (!storeBreakpoint) {
                            throw new IllegalStateException("no code of PatternState.store" + signature + " at line "
                                    + line);
                        }
                    } else {
                        for (Method m : type.methodsByName("awaitStale")) {
                            breakAt(requests, m.location());
                        }
                        for (Method m : type.methodsByName("releaseStale")) {
                            breakAt(requests, m.location());
                        }
                    }
                } else if (e instanceof BreakpointEvent bp) {
                    String method = bp.location().method().name();
                    ThreadReference thread = bp.thread();
                    if (method.equals("store") && thread.name().equals("stale-writer") && stale == null) {
                        stale = thread; // read the option, before the lock: held
                        resume = false;
                    } else if (method.equals("awaitStale")) {
                        waiting = thread;
                        resume = false;
                    } else if (method.equals("releaseStale")) {
                        if (stale == null) {
                            throw new IllegalStateException("the stale writer was never held");
                        }
                        stale.resume();
                    }
                    if (stale != null && waiting != null) {
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

    private static void breakAt(EventRequestManager requests, Location l) {
        BreakpointRequest r = requests.createBreakpointRequest(l);
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        r.enable();
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
