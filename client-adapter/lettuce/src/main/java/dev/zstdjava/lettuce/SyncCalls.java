package dev.zstdjava.lettuce;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.internal.TimeoutProvider;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.RedisCommand;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The sync API of a connection under the policy: Lettuce's own sync API, except that a command call runs the async
 * method and waits for its future here, with the calling thread announced to the gate ({@link PolicyScope#syncCall})
 * first. So the future the caller waits for is known before its reply can arrive, and the event loop leaves that
 * reply to this thread: <b>a sync caller decodes its own reply</b>, with no thread hop. The commands the call made
 * and does not wait for (the parts of a cluster's multi-slot command, whose combined future Lettuce completes) are
 * released to the client's executor as soon as the call has dispatched them.
 *
 * <p>Everything else (methods that return no future, node selections, default methods, {@code Object}'s methods)
 * goes to Lettuce's sync API unchanged. Timeouts, cancellation on timeout and the exceptions thrown are Lettuce's
 * ({@link LettuceFutures#awaitOrCancel}, per-command timeouts from the connection's {@code TimeoutOptions}); inside
 * {@code MULTI} a queued call returns null, as with Lettuce.
 *
 * <p>Thread-safe; per call one thread-local look-up and one cached method look-up on top of Lettuce's own proxy call.
 */
final class SyncCalls implements InvocationHandler {
    /** the async method for a sync interface method, per async API class; NONE when the call goes to Lettuce's */
    private static final ClassValue<Map<Method, Method>> METHODS = new ClassValue<>() {
        @Override
        protected Map<Method, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };
    private static final Method NONE;

    static {
        try {
            NONE = Object.class.getMethod("hashCode");
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final StatefulConnection<?, ?> connection;
    private final Object lettuce;
    private final Object async;
    private final TimeoutProvider timeouts;

    private SyncCalls(StatefulConnection<?, ?> connection, Object lettuce, Object async) {
        this.connection = connection;
        this.lettuce = lettuce;
        this.async = async;
        this.timeouts = new TimeoutProvider(() -> connection.getOptions().getTimeoutOptions(),
                () -> connection.getTimeout().toNanos());
    }

    /**
     * @param lettuce Lettuce's sync API of the connection (a proxy), which this one stands in for
     * @param async   the connection's async API, whose methods the command calls run
     * @return a proxy with the interfaces of {@code lettuce}
     */
    @SuppressWarnings("unchecked")
    static <T> T of(StatefulConnection<?, ?> connection, T lettuce, Object async) {
        return (T) Proxy.newProxyInstance(SyncCalls.class.getClassLoader(), lettuce.getClass().getInterfaces(),
                new SyncCalls(connection, lettuce, async));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        Method target = asyncMethod(method);
        if (target == null) {
            if (method.getDeclaringClass() == Object.class && method.getName().equals("equals")) {
                return proxy == args[0];
            }
            return call(method, lettuce, args);
        }
        PolicyScope scope = PolicyScope.current();
        Object previous = scope.beginSyncCall();
        Object result;
        try {
            result = call(target, async, args);
        } catch (Throwable t) {
            scope.endSyncCall(previous, null);
            throw t;
        }
        RedisFuture<?> future = (RedisFuture<?>) result;
        boolean queued = future != null && !transactionControl(method, args)
                && connection instanceof StatefulRedisConnection<?, ?> c && c.isMulti();
        scope.endSyncCall(previous, queued ? null : future);
        if (future == null || queued) {
            return null; // queued in MULTI: the result comes with EXEC's
        }
        long timeout = future instanceof RedisCommand<?, ?, ?> command ? timeouts.getTimeoutNs(command)
                : connection.getTimeout().toNanos();
        return LettuceFutures.awaitOrCancel(future, timeout, TimeUnit.NANOSECONDS);
    }

    // The async API's method of a command call (one returning a future), or null.
    private Method asyncMethod(Method method) {
        Map<Method, Method> methods = METHODS.get(async.getClass());
        Method m = methods.get(method);
        if (m == null) {
            m = NONE;
            if (!method.isDefault() && method.getDeclaringClass() != Object.class) {
                try {
                    Method a = async.getClass().getMethod(method.getName(), method.getParameterTypes());
                    if (RedisFuture.class.isAssignableFrom(a.getReturnType())) {
                        m = a;
                    }
                } catch (NoSuchMethodException e) {
                    // not a command: Lettuce's sync API answers it
                }
            }
            methods.put(method, m);
        }
        return m == NONE ? null : m;
    }

    private static Object call(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    // MULTI, EXEC, DISCARD and WATCH wait for their reply even inside a transaction (as in Lettuce's sync API).
    private static boolean transactionControl(Method method, Object[] args) {
        String name = method.getName();
        if (name.equals("exec") || name.equals("multi") || name.equals("discard") || name.equals("watch")) {
            return true;
        }
        if (!name.equals("dispatch") || args == null || args.length == 0 || !(args[0] instanceof ProtocolKeyword k)) {
            return false;
        }
        CommandType t = CommandGate.Table.commandType(k); // a custom keyword named MULTI is MULTI
        return t == CommandType.MULTI || t == CommandType.EXEC || t == CommandType.DISCARD;
    }
}
