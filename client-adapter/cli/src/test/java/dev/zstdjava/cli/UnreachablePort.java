package dev.zstdjava.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/**
 * A loopback port whose listening socket has a full backlog and accepts nothing: Linux drops further connection
 * requests (SYNs), so a TCP connection to it is never made and a client's connect waits for its own connect timeout.
 * Nothing leaves the loopback interface and nothing needs root. The constructor checks that the backlog filled up.
 */
final class UnreachablePort implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    private final List<Socket> queued = new ArrayList<>();

    UnreachablePort() throws IOException {
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 200);
                queued.add(s);
            } catch (SocketTimeoutException full) {
                s.close();
                return;
            }
        }
        close();
        throw new IllegalStateException("the backlog of " + socket + " does not fill up");
    }

    int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        for (Socket s : queued) {
            s.close();
        }
        socket.close();
    }
}
