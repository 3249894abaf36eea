package dev.zstdjava.cli;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Transports;
import io.netty.channel.socket.SocketChannel;
import io.netty.resolver.dns.DefaultDnsCache;
import io.netty.resolver.dns.DefaultDnsCnameCache;
import io.netty.resolver.dns.DnsAddressResolverGroup;
import io.netty.resolver.dns.DnsNameResolverBuilder;
import io.netty.resolver.dns.DnsServerAddressStreamProvider;
import io.netty.resolver.dns.DnsServerAddressStreamProviders;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The tool's own plain connections (raw bytes, no compression): one to a standalone server, or one to every primary
 * of a cluster (found with {@code CLUSTER NODES}), in the order of their node ids, so that a cursor names a node by
 * its id and the topology it was printed under ({@link Position}). Every command goes through the shared
 * {@link RateLimiter}. Not thread-safe: one thread drives a run.
 */
final class Keyspace implements AutoCloseable {
    /** One primary: its address, its cluster node id (null on a standalone server) and its connection. */
    record Node(String address, String id, StatefulRedisConnection<byte[], byte[]> connection) {
        RedisCommands<byte[], byte[]> sync() {
            return connection.sync();
        }
    }

    /**
     * Where host names are looked up: the platform's name servers ({@code /etc/resolv.conf}), as Lettuce's own
     * resolver does; a test points it at a loopback server.
     */
    static volatile DnsServerAddressStreamProvider nameServers = DnsServerAddressStreamProviders.platformDefault();

    /**
     * The search domains a host name is also looked up under, null for those of the platform ({@code /etc/resolv.conf}
     * and {@code RES_OPTIONS}, as Netty reads them); a test sets none, so that exactly the name is asked for.
     */
    static volatile List<String> searchDomains;

    private final ClientResources resources;
    private final RedisClient client;
    private final RedisURI uri;
    private final List<Node> nodes;
    private final boolean cluster;
    private final int[] slotOwner;
    /** The cluster's topology as a cursor names it ({@link #topology}), null on a standalone server. */
    private final String topology;
    final RateLimiter limiter;

    private Keyspace(ClientResources resources, RedisClient client, RedisURI uri, List<Node> nodes, int[] slotOwner,
                     String topology, RateLimiter limiter) {
        this.resources = resources;
        this.topology = topology;
        this.slotOwner = slotOwner;
        this.cluster = slotOwner != null;
        this.client = client;
        this.uri = uri;
        this.nodes = nodes;
        this.limiter = limiter;
    }

    /**
     * Connects to {@code uriText} (redis://, rediss:// for TLS, user and password as Lettuce URIs take them), and
     * when the server is a cluster node, to every primary that serves slots.
     *
     * @throws ToolException with a clear message when the server is unreachable or AUTH fails; a
     *                       {@link ToolException.BadArguments} when the URI is malformed ({@link #parse})
     */
    static Keyspace connect(String uriText, Duration timeout, RateLimiter limiter) {
        RedisURI uri = parse(uriText);
        uri.setTimeout(timeout);
        ClientResources resources = resources(timeout);
        RedisClient client = RedisClient.create(resources);
        client.setOptions(ClientOptions.builder().socketOptions(socketOptions(timeout)).build());
        try {
            StatefulRedisConnection<byte[], byte[]> first = open(client, uri);
            limiter.acquire();
            String info = first.sync().info("cluster");
            if (!info.contains("cluster_enabled:1")) {
                return new Keyspace(resources, client, uri,
                        List.of(new Node(uri.getHost() + ":" + uri.getPort(), null, first)), null, null, limiter);
            }
            limiter.acquire();
            Partitions partitions = ClusterPartitionParser.parse(first.sync().clusterNodes());
            List<RedisClusterNode> primaries = new ArrayList<>();
            for (RedisClusterNode n : partitions) {
                if (n.is(RedisClusterNode.NodeFlag.UPSTREAM) && !n.getSlots().isEmpty()) {
                    if (n.is(RedisClusterNode.NodeFlag.FAIL)) { // its keys are there, but cannot be scanned
                        throw failedPrimary(uri, n);
                    }
                    primaries.add(n);
                }
            }
            primaries.sort(Comparator.comparing(RedisClusterNode::getNodeId));
            first.close();
            List<Node> nodes = new ArrayList<>();
            int[] owner = new int[io.lettuce.core.cluster.SlotHash.SLOT_COUNT];
            java.util.Arrays.fill(owner, -1);
            for (RedisClusterNode n : primaries) {
                for (int slot : n.getSlots()) {
                    owner[slot] = nodes.size();
                }
                String host = n.getUri() == null || n.getUri().getHost() == null || n.getUri().getHost().isEmpty()
                        ? uri.getHost() : n.getUri().getHost();
                RedisURI nodeUri = RedisURI.builder(uri).withHost(host).withPort(n.getUri().getPort()).build();
                nodes.add(new Node(host + ":" + nodeUri.getPort(), n.getNodeId(), open(client, nodeUri)));
            }
            if (nodes.isEmpty()) {
                throw new ToolException(uri.getHost() + ":" + uri.getPort() + " is a cluster node, but CLUSTER NODES"
                        + " lists no primary that serves slots");
            }
            return new Keyspace(resources, client, uri, List.copyOf(nodes), owner, topology(primaries), limiter);
        } catch (RuntimeException e) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
            resources.shutdown(0, 2, TimeUnit.SECONDS);
            throw e instanceof ToolException t ? t : new ToolException(describe(uri, e), e);
        }
    }

    /**
     * @return socket options under which a TCP connection is given up after {@code timeout} ({@code --timeout}, as a
     *         command is; Lettuce's own default is 10 s): for every client the tool makes
     */
    static SocketOptions socketOptions(Duration timeout) {
        return SocketOptions.builder().connectTimeout(timeout).build();
    }

    /**
     * @return client resources for one client of the tool (the caller shuts them down after the client), under which
     *         each DNS query for a host name is given up after {@code timeout} ({@code --timeout}; Netty's own is the
     *         {@code timeout} of {@code /etc/resolv.conf}, 5 s by default, and neither Lettuce's connection timeout
     *         nor Netty's connect timeout bounds the look-up); otherwise the resolver Lettuce uses by default
     */
    static ClientResources resources(Duration timeout) {
        DnsNameResolverBuilder resolver = new DnsNameResolverBuilder()
                .datagramChannelType(Transports.datagramChannelClass())
                .socketChannelType(Transports.socketChannelClass().asSubclass(SocketChannel.class))
                .nameServerProvider(nameServers).queryTimeoutMillis(timeout.toMillis())
                .cnameCache(new DefaultDnsCnameCache()).resolveCache(new DefaultDnsCache());
        List<String> domains = searchDomains;
        if (domains != null) {
            resolver.searchDomains(domains);
        }
        return DefaultClientResources.builder().addressResolverGroup(new DnsAddressResolverGroup(resolver)).build();
    }

    /**
     * Parses the tool's URI argument as Lettuce does, and refuses what Lettuce would take for something else or
     * connect with late and unclearly: a port that is not a number from 1 to 65535 (Lettuce takes
     * {@code redis://host:abc} as the host {@code host:abc} on port 6379, and {@code redis://host:0} as port 6379), an
     * empty port ({@code redis://host:}, as a shell writes {@code redis://host:$PORT} with {@code PORT} unset; Lettuce
     * takes port 6379, which may be another server), a query parameter Lettuce does not know or whose value it drops
     * ({@code ?database=x} and {@code ?databse=2} both connect to database 0), a {@code timeout} parameter (the tool's
     * {@code --timeout} sets it), Unix sockets ({@code redis-socket://}: the tool bundles no native transport, so
     * Lettuce would fail when connecting) and Sentinel ({@code redis-sentinel://}: not supported; the tool names and
     * scans the server it connects to). A host name that {@code java.net.URI} does not take for one (an underscore,
     * as in Docker Compose's {@code redis_1}) is split from its port here, where Lettuce would take
     * {@code redis_1:6379} for the host; the user, password, database and query stay as Lettuce parsed them. An IPv6
     * literal is written in brackets: {@code redis://[::1]:6379}.
     *
     * @throws ToolException.BadArguments naming the URI and what is wrong with it
     */
    static RedisURI parse(String uriText) {
        RedisURI uri;
        try {
            uri = RedisURI.create(uriText);
        } catch (RuntimeException e) {
            throw badUri(uriText, e.getMessage());
        }
        if (uri.getSocket() != null) {
            throw badUri(uriText, "Unix sockets are not supported (the tool bundles no native transport for them);"
                    + " connect over TCP");
        }
        if (!uri.getSentinels().isEmpty()) {
            throw badUri(uriText, "Sentinel is not supported; give the primary's address");
        }
        java.net.URI parsed = java.net.URI.create(uriText); // Lettuce parsed it with java.net.URI
        checkQuery(uriText, parsed.getRawQuery());
        if (parsed.getRawAuthority() != null) {
            String authority = parsed.getRawAuthority();
            String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = hostPort.lastIndexOf(':');
            boolean hasPort = colon > hostPort.lastIndexOf(']'); // the colons of an IPv6 literal are in brackets
            String port = hasPort ? hostPort.substring(colon + 1) : "";
            int number = port.matches("[0-9]{1,5}") ? Integer.parseInt(port) : -1;
            if (hasPort && port.isEmpty()) {
                throw badUri(uriText, "the port after ':' is empty (leave out the ':' for the default port 6379)");
            }
            if (hasPort && (number < 1 || number > 65_535)) {
                throw badUri(uriText, "port '" + port + "' is not a number from 1 to 65535");
            }
            if (parsed.getHost() == null) { // not a host name to java.net.URI: Lettuce kept the port in the host
                String host = hasPort ? hostPort.substring(0, colon) : hostPort;
                if (!host.matches("[A-Za-z0-9._-]+")) {
                    throw badUri(uriText, "host '" + host + "' is not a host name (letters, digits, '.', '-' and '_')"
                            + " or an IP address (an IPv6 address in brackets: [::1])");
                }
                uri.setHost(host);
                uri.setPort(hasPort ? number : RedisURI.DEFAULT_REDIS_PORT);
            }
        }
        return uri;
    }

    /** The query parameters Lettuce reads from a URI, in lower case (it matches them so), but the timeout. */
    private static final java.util.Set<String> QUERY_PARAMETERS = java.util.Set.of(RedisURI.PARAMETER_NAME_DATABASE,
            RedisURI.PARAMETER_NAME_DATABASE_ALT, "clientname", "libraryname", "libraryversion", "verifypeer");

    /**
     * @throws ToolException.BadArguments when {@code rawQuery} holds a parameter Lettuce would drop unread: one it
     *                                    does not know, a database that is not a number from 0, a {@code verifyPeer}
     *                                    that is none of its modes; or a timeout, which {@code --timeout} sets
     */
    private static void checkQuery(String uriText, String rawQuery) {
        if (rawQuery == null) {
            return;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = (eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(java.util.Locale.ROOT);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            if (name.equals(RedisURI.PARAMETER_NAME_TIMEOUT)) {
                throw badUri(uriText, "the tool does not take the timeout from the URI; give --timeout SECONDS");
            }
            if (!QUERY_PARAMETERS.contains(name)) {
                throw badUri(uriText, "unknown query parameter '" + pair + "' (it takes database, db, clientName,"
                        + " libraryName, libraryVersion and verifyPeer)");
            }
            boolean ok = switch (name) {
                case "database", "db" -> value.matches("[0-9]{1,9}");
                case "verifypeer" -> value.matches("(?i)none|ca|full");
                default -> !value.isEmpty();
            };
            if (!ok) {
                throw badUri(uriText, "query parameter '" + pair + "' has no value Lettuce takes (it would be"
                        + " dropped)");
            }
        }
    }

    private static ToolException.BadArguments badUri(String uriText, String why) {
        return new ToolException.BadArguments("bad server URI '" + uriText + "': " + why
                + " (expected redis://[user:password@]host:port or rediss://... for TLS)");
    }

    /**
     * @return the error of a run on a cluster whose primary {@code n}, which serves slots, is marked failed (down, and
     *         no replica has taken its slots over): a scan of the others would say every key was seen while its keys
     *         were not
     */
    private static ToolException failedPrimary(RedisURI uri, RedisClusterNode n) {
        java.util.BitSet slots = new java.util.BitSet();
        n.getSlots().forEach(slots::set);
        String at = n.getUri() == null ? "an unknown address" : (n.getUri().getHost() == null
                || n.getUri().getHost().isEmpty() ? uri.getHost() : n.getUri().getHost()) + ":" + n.getUri().getPort();
        return new ToolException("primary " + n.getNodeId() + " at " + at + " serves slots " + ranges(slots) + " but"
                + " the cluster marks it failed (down, and no replica has taken its slots over): its keys cannot be"
                + " scanned, so a run would not see every key; run again once it is back or a replica serves its"
                + " slots");
    }

    /**
     * @return the topology of a cluster whose primaries serving slots are {@code primaries}, as a cursor names it: the
     *         first 8 hex digits of the SHA-256 of each primary's node id and slots, in node id order; the same
     *         whatever the nodes' addresses, different when a primary is replaced (a failover) or a slot moves
     */
    static String topology(List<RedisClusterNode> primaries) {
        StringBuilder s = new StringBuilder();
        primaries.stream().sorted(Comparator.comparing(RedisClusterNode::getNodeId)).forEach(n -> s.append(
                n.getNodeId()).append(' ').append(n.getSlots().stream().sorted().toList()).append('\n'));
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(
                    s.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return java.util.HexFormat.of().formatHex(d, 0, 4);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }

    /**
     * Connects again (three tries in all) when the server closed the connection during the handshake before Lettuce
     * saw a reply (seen now and then when AUTH is refused: "closed prematurely", or the handshake handler already
     * gone from the closed channel), so that a later try can report the server's own error.
     */
    private static StatefulRedisConnection<byte[], byte[]> open(RedisClient client, RedisURI uri) {
        for (int attempt = 1; ; attempt++) {
            try {
                return client.connect(ByteArrayCodec.INSTANCE, uri);
            } catch (RuntimeException e) {
                String why = describe(uri, e);
                boolean closedInHandshake = e instanceof RedisConnectionException
                        && (why.contains("closed prematurely") || why.contains("RedisHandshakeHandler not registered"));
                if (!closedInHandshake || attempt == 3) {
                    throw new ToolException(why, e);
                }
            }
        }
    }

    /** @return one line saying what went wrong with which server: every message along the cause chain */
    static String describe(RedisURI uri, Throwable e) {
        String where = uri.getHost() + ":" + uri.getPort();
        for (Throwable t : chain(e)) {
            String m = t.getMessage() == null ? "" : t.getMessage();
            if (m.startsWith("WRONGPASS") || m.startsWith("NOAUTH") || m.contains("invalid password")) {
                return "authentication to " + where + " failed: " + m
                        + " (give user and password in the URI: redis://user:password@host:port)";
            }
        }
        String text = join(messages(e).stream().filter(m -> !m.startsWith("Unable to connect to")).toList());
        if (e instanceof RedisConnectionException) {
            return "cannot connect to " + where + ": " + (text.isEmpty() ? e.getClass().getSimpleName() : text);
        }
        return where + ": " + (e instanceof RedisException ? "" : e.getClass().getSimpleName() + ": ") + text;
    }

    /** The longest message {@link #causes} takes from one exception, and the longest line it makes. */
    static final int MAX_MESSAGE = 300, MAX_CAUSES = 1000;

    /**
     * @return the distinct messages along {@code e}'s cause chain (its suppressed exceptions' included), in one line
     *         of at most {@value #MAX_CAUSES} characters: a message that an earlier one holds is left out, so that
     *         the message that names what went wrong (such as Netty's {@code connection timed out after 1000 ms})
     *         shows wherever it is in the chain; the exception's class name when none has a message
     */
    static String causes(Throwable e) {
        String text = join(messages(e));
        return text.isEmpty() ? e.getClass().getSimpleName() : text;
    }

    /**
     * @return the messages along {@code e}'s cause chain and its suppressed exceptions, breadth first, each on one line
     *         and cut at {@value #MAX_MESSAGE} characters, none held by an earlier one
     */
    private static List<String> messages(Throwable e) {
        List<String> messages = new ArrayList<>();
        for (Throwable t : chain(e)) {
            String m = t.getMessage() == null ? "" : t.getMessage().strip().replaceAll("\\s+", " ");
            String line = m.length() > MAX_MESSAGE ? m.substring(0, MAX_MESSAGE) + "..." : m;
            if (!line.isEmpty() && messages.stream().noneMatch(earlier -> earlier.contains(line))) {
                messages.add(line);
            }
        }
        return messages;
    }

    /** @return {@code e}, its causes and its suppressed exceptions, breadth first, each once */
    private static List<Throwable> chain(Throwable e) {
        List<Throwable> chain = new ArrayList<>();
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>(List.of(e));
        while (!todo.isEmpty()) {
            Throwable t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            chain.add(t);
            if (t.getCause() != null) {
                todo.add(t.getCause());
            }
            todo.addAll(List.of(t.getSuppressed()));
        }
        return chain;
    }

    /** @return {@code messages} joined with "; ", cut at {@value #MAX_CAUSES} characters */
    private static String join(List<String> messages) {
        String text = String.join("; ", messages);
        return text.length() <= MAX_CAUSES ? text : text.substring(0, MAX_CAUSES) + "...";
    }

    /**
     * @return the index of the primary serving {@code slot} (0 on a standalone server)
     * @throws ToolException when no primary serves it
     */
    int nodeOfSlot(int slot) {
        if (slotOwner == null) {
            return 0;
        }
        if (slotOwner[slot] < 0) {
            throw new ToolException("no primary serves slot " + slot);
        }
        return slotOwner[slot];
    }

    /** @return the primaries, in cursor order */
    List<Node> nodes() {
        return nodes;
    }

    /** @return whether the server is a cluster */
    boolean cluster() {
        return cluster;
    }

    /** @return the URI given, with {@code --timeout} as its timeout: for messages and the tool's other connections */
    RedisURI uri() {
        return uri;
    }

    /**
     * One {@code SCAN} page on node {@code node} from {@code cursor} ("0" to start), {@code MATCH pattern} when not
     * null, {@code COUNT count}.
     */
    KeyScanCursor<byte[]> scan(int node, String cursor, byte[] pattern, int count) {
        limiter.acquire();
        ScanArgs args = ScanArgs.Builder.limit(count);
        if (pattern != null) {
            args.match(pattern);
        }
        return nodes.get(node).sync().scan(ScanCursor.of(cursor), args);
    }

    /** Receives the keys of one {@code SCAN} page and the cursor to resume after it. */
    interface PageVisitor {
        /** @param resume the {@code --cursor} value that resumes after this page ({@link Position}), or "done" */
        void page(int node, List<byte[]> keys, String resume);
    }

    /**
     * Where a scan starts, as {@code --cursor} takes it and a run prints it: {@code 0:CURSOR/OPTIONS} on a standalone
     * server (its one node), {@code NODEID:CURSOR@TOPOLOGY/OPTIONS} on a cluster (the primary by its node id, its
     * {@code SCAN} cursor, and the cluster's {@link #topology} when it was printed: the primaries before it in node id
     * order were scanned, so a cursor is taken only while the primaries and their slots are the same); OPTIONS are
     * those of the run that printed it ({@link CursorOptions#text}), which a resumed run must share.
     *
     * @param node     the node as the cursor names it: {@code 0} on a standalone server, else a node id
     * @param topology null on a standalone server
     * @param options  the options it was printed under ({@link CursorOptions#check}); null for {@link #START}
     */
    record Position(String text, String node, String cursor, String topology, String options) {
        /** The first key of the first node. */
        static final Position START = new Position("0", null, "0", null, null);

        private static final java.util.regex.Pattern STANDALONE = java.util.regex.Pattern.compile(
                "([0-9]+):([0-9]+)(?:/([0-9a-f]{9,64}))?");
        private static final java.util.regex.Pattern CLUSTER = java.util.regex.Pattern.compile(
                "([0-9A-Za-z]{1,64}):([0-9]+)@([0-9a-f]{8})(?:/([0-9a-f]{9,64}))?");

        /**
         * @param text a cursor as an earlier run printed it ({@code 0}: the start)
         * @throws ToolException.BadArguments when {@code text} is not one
         */
        static Position parse(String text) {
            if (text.equals("0")) {
                return START;
            }
            if (text.equals("done")) {
                throw new ToolException.BadArguments("--cursor 'done': every key was seen by the run that printed it;"
                        + " nothing is left to resume");
            }
            java.util.regex.Matcher m = STANDALONE.matcher(text);
            boolean cluster = !m.matches();
            if (cluster) {
                m = CLUSTER.matcher(text);
            }
            if (m.matches() && unsignedLong(m.group(2))) {
                String options = m.group(cluster ? 4 : 3);
                if (options == null) {
                    throw new ToolException.BadArguments("--cursor '" + text + "' is a cursor of an earlier version of"
                            + " the tool (0:CURSOR, NODEID:CURSOR@TOPOLOGY), which does not carry the options it was"
                            + " printed under, so it cannot show that this run's are the same (another --match would"
                            + " skip keys or see them twice); run again without --cursor (keys rewritten already are"
                            + " then skipped as not that format)");
                }
                return new Position(text, m.group(1), m.group(2), cluster ? m.group(3) : null, options);
            }
            throw new ToolException.BadArguments("--cursor '" + Names.escape(text) + "' is not a cursor as an"
                    + " earlier run printed it (0:CURSOR/OPTIONS on a standalone server, NODEID:CURSOR@TOPOLOGY/OPTIONS"
                    + " on a cluster)");
        }

        private static boolean unsignedLong(String digits) {
            try {
                Long.parseUnsignedLong(digits);
                return true;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    /**
     * @return the index of the node {@code from} starts at
     * @throws ToolException.BadArguments when {@code from} does not name a node of this keyspace as it is now: a
     *                                    standalone server's cursor on a cluster or the other way round, a node
     *                                    that is no longer a primary serving slots, a topology that changed
     */
    int startNode(Position from) {
        if (from == Position.START) {
            return 0;
        }
        String given = "--cursor '" + from.text() + "'";
        String restart = "; run again without --cursor (keys rewritten already are skipped as not that format)";
        if (!cluster) {
            if (from.topology() != null) {
                throw new ToolException.BadArguments(given + " names a cluster node, but " + uri.getHost() + ":"
                        + uri.getPort() + " is a standalone server");
            }
            if (!from.node().equals("0")) {
                throw new ToolException.BadArguments(given + " names node " + from.node() + ", but a standalone server"
                        + " has one node, 0");
            }
            return 0;
        }
        if (from.topology() == null) {
            throw new ToolException.BadArguments(given + " names a node by its index (the form of a standalone server,"
                    + " and of earlier versions of the tool), which a failover or a topology change makes another"
                    + " node; a cluster's cursor is NODEID:CURSOR@TOPOLOGY" + restart);
        }
        int index = -1;
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).id().equals(from.node())) {
                index = i;
            }
        }
        if (index < 0) {
            throw new ToolException.BadArguments(given + " names node " + from.node() + ", which is not a primary"
                    + " serving slots now (a failover or a resharding since the run that printed it; the primaries"
                    + " are " + nodes.stream().map(n -> n.id() + " at " + n.address()).toList() + "): its SCAN cursor"
                    + " means nothing on another node" + restart);
        }
        if (!from.topology().equals(topology)) {
            throw new ToolException.BadArguments(given + " was printed when the cluster's primaries and their slots"
                    + " were " + from.topology() + "; they are " + topology + " now (a failover or a resharding since):"
                    + " keys may have moved between the primaries scanned and those not" + restart);
        }
        return index;
    }

    /**
     * @return the cursor that resumes at {@code cursor} on the node of index {@code node}, carrying {@code options}
     *         (null: none, for a scan that prints no cursor)
     */
    private String position(int node, String cursor, CursorOptions options) {
        String at = cluster ? nodes.get(node).id() + ":" + cursor + "@" + topology : node + ":" + cursor;
        return options == null ? at : at + "/" + options.text();
    }

    /**
     * Scans every node in order, {@code MATCH pattern} (null: all), {@code COUNT count}, from {@code from}; the
     * cursors handed to {@code visitor} carry {@code options} (null for a scan that prints none). On a cluster each
     * primary to be scanned is asked for its own view of itself before the first page, and again when its scan ends
     * ({@link #checkOwnState}): a primary whose slots, role or config epoch changed meanwhile, or with a slot being
     * migrated, ends the run with {@link TopologyChanged}, since keys may have moved between primaries scanned and
     * those not. (A key moves only out of a primary whose own state then changes, or into one whose state changes;
     * when that primary's scan ends before the move, its keys were seen there.)
     *
     * @throws ToolException.BadArguments when {@code from} does not name a node of this keyspace ({@link #startNode})
     * @throws TopologyChanged            when the cluster's topology changed as the run started or during it
     */
    void scanAll(byte[] pattern, Position from, int count, CursorOptions options, PageVisitor visitor) {
        int startNode = startNode(from);
        OwnState[] before = new OwnState[nodes.size()];
        for (int n = startNode; cluster && n < nodes.size(); n++) {
            before[n] = checkOwnState(n, null);
        }
        for (int n = startNode; n < nodes.size(); n++) {
            String c = n == startNode ? from.cursor() : "0";
            KeyScanCursor<byte[]> page;
            do {
                page = scan(n, c, pattern, count);
                c = page.getCursor();
                if (page.isFinished() && cluster) {
                    checkOwnState(n, before[n]);
                }
                String resume = !page.isFinished() ? position(n, c, options) : n + 1 < nodes.size()
                        ? position(n + 1, "0", options) : "done";
                visitor.page(n, page.getKeys(), resume);
            } while (!page.isFinished());
        }
    }

    /**
     * The cluster's topology changed as a run started or during it (a slot moved or being migrated, a failover): the
     * keys it scanned may not be the whole keyspace, so it stops rather than say every key was seen; the message says
     * what changed and to run again from the start.
     */
    static final class TopologyChanged extends ToolException {
        TopologyChanged(String message) {
            super(message);
        }
    }

    /**
     * A primary as its own {@code CLUSTER NODES} line shows it: whether it is a primary (and not failed), its slots,
     * its config epoch (which a failover, and a slot given to it, raise) and the slots it is migrating or importing
     * ({@code [SLOT->-ID]}, {@code [SLOT-<-ID]}).
     */
    record OwnState(String id, boolean primary, java.util.BitSet slots, long epoch, List<String> moving) {
        /** @return what differs from {@code earlier}, or null when nothing does */
        String changedFrom(OwnState earlier) {
            List<String> what = new ArrayList<>();
            if (!primary) {
                what.add("it is no longer a primary (a failover)");
            }
            if (!slots.equals(earlier.slots)) {
                what.add("its slots are " + ranges(slots) + ", not " + ranges(earlier.slots) + " as when the run started");
            }
            if (epoch != earlier.epoch) {
                what.add("its config epoch went from " + earlier.epoch + " to " + epoch + " (a failover, or a slot given"
                        + " to it)");
            }
            return what.isEmpty() ? null : String.join("; ", what);
        }
    }

    /** @return {@code slots} as {@code CLUSTER NODES} writes them: {@code 0-5460 5461} ("none" when empty) */
    static String ranges(java.util.BitSet slots) {
        List<String> r = new ArrayList<>();
        for (int lo = slots.nextSetBit(0); lo >= 0; lo = slots.nextSetBit(slots.nextClearBit(lo))) {
            int hi = slots.nextClearBit(lo) - 1;
            r.add(lo == hi ? String.valueOf(lo) : lo + "-" + hi);
        }
        return r.isEmpty() ? "none" : String.join(" ", r);
    }

    /**
     * Reads primary {@code node}'s own state ({@link OwnState}) from its own {@code CLUSTER NODES}, and checks it: no
     * slot of it is being migrated, and it is what it was ({@code before}), or, at the start ({@code before} null),
     * a primary serving the slots the topology this run was connected under gives it.
     *
     * @return the state read
     * @throws TopologyChanged naming the primary and what changed
     */
    private OwnState checkOwnState(int node, OwnState before) {
        Node n = nodes.get(node);
        limiter.acquire();
        OwnState now = ownState(n, n.sync().clusterNodes());
        String what;
        if (!now.moving().isEmpty()) {
            what = "slots are being migrated to or from it, a resharding under way (" + String.join(" ", now.moving())
                    + ")";
        } else if (before != null) {
            what = now.changedFrom(before);
        } else {
            java.util.BitSet given = new java.util.BitSet();
            for (int slot = 0; slot < slotOwner.length; slot++) {
                given.set(slot, slotOwner[slot] == node);
            }
            what = now.changedFrom(new OwnState(n.id(), true, given, now.epoch(), List.of()));
        }
        if (what == null) {
            return now;
        }
        String when = before == null ? "as the run started" : "during the run";
        throw new TopologyChanged("the cluster's topology changed " + when + " (primary " + n.id() + " at "
                + n.address() + ", when its scan " + (before == null ? "was to start" : "ended") + ": " + what + "): keys"
                + " may have moved between the primaries scanned and those not, so this run did not see every key; run"
                + " again from the start (without --cursor) once the cluster is stable (keys rewritten already are then"
                + " skipped as not that format)");
    }

    /**
     * @return the state of node {@code n} as the line flagged {@code myself} of its {@code CLUSTER NODES} reply
     *         ({@code nodesText}) shows it
     * @throws ToolException when the reply has no such line
     */
    static OwnState ownState(Node n, String nodesText) {
        for (String line : nodesText.split("\\r?\\n")) {
            String[] f = line.strip().split(" ");
            if (f.length < 8 || !List.of(f[2].split(",")).contains("myself")) {
                continue;
            }
            List<String> flags = List.of(f[2].split(","));
            java.util.BitSet slots = new java.util.BitSet();
            List<String> moving = new ArrayList<>();
            for (int i = 8; i < f.length; i++) {
                if (f[i].startsWith("[")) {
                    moving.add(f[i]);
                    continue;
                }
                String[] range = f[i].split("-");
                slots.set(Integer.parseInt(range[0]), Integer.parseInt(range[range.length - 1]) + 1);
            }
            boolean primary = flags.contains("master") && !flags.contains("fail") && !flags.contains("fail?");
            return new OwnState(f[0], primary, slots, Long.parseLong(f[6]), List.copyOf(moving));
        }
        throw new ToolException(n.address() + ": its CLUSTER NODES reply has no line flagged myself");
    }

    /** @return the number of keys on every node together ({@code DBSIZE}) */
    long dbsize() {
        long n = 0;
        for (Node node : nodes) {
            limiter.acquire();
            n += node.sync().dbsize();
        }
        return n;
    }

    /** @return whether the first node's {@code INFO memory} names jemalloc as its allocator (true when unknown) */
    boolean jemalloc() {
        limiter.acquire();
        String info = nodes.get(0).sync().info("memory");
        int i = info.indexOf("mem_allocator:");
        return i < 0 || info.startsWith("jemalloc", i + "mem_allocator:".length());
    }

    /** @return {@code CONFIG GET name} on the first node, or {@code fallback} when the server refuses CONFIG */
    long config(String name, long fallback) {
        try {
            limiter.acquire();
            var m = nodes.get(0).connection().sync().configGet(name);
            String v = m.get(name);
            return v == null ? fallback : Long.parseLong(v.trim());
        } catch (RuntimeException e) {
            return fallback;
        }
    }

    @Override
    public void close() {
        for (Node n : nodes) {
            n.connection().close();
        }
        client.shutdown(0, 2, TimeUnit.SECONDS);
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
