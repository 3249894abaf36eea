package dev.zstdjava.cli;

import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A server that closes the connection during the handshake, as a server refusing AUTH now and then does: the tool
 * connects again and reports the server's own error, and gives up after three tries.
 */
class HandshakeRetryTest {

    /** A loopback server: the first {@code closing} connections are closed at once, later ones answer NOAUTH. */
    static final class RefusingServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger accepted = new AtomicInteger();
        final Thread thread;

        RefusingServer(int closing) throws IOException {
            thread = Thread.ofPlatform().daemon().start(() -> {
                while (!socket.isClosed()) {
                    try {
                        Socket s = socket.accept();
                        if (accepted.incrementAndGet() <= closing) {
                            Thread.ofPlatform().daemon().start(() -> closeInHandshake(s));
                        } else {
                            Thread.ofPlatform().daemon().start(() -> answerNoAuth(s));
                        }
                    } catch (IOException e) {
                        return; // closed
                    }
                }
            });
        }

        /**
         * Ends the connection as a server that hangs up does: FIN first, then reading what the client sent until it
         * closes (closing at once with the client's HELLO unread would send a reset instead).
         */
        static void closeInHandshake(Socket s) {
            try (s; InputStream in = s.getInputStream()) {
                s.shutdownOutput();
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                // the client went away
            }
        }

        /** Reads RESP commands (arrays of bulk strings) and answers each with an error, until the client closes. */
        static void answerNoAuth(Socket s) {
            try (s; InputStream in = new BufferedInputStream(s.getInputStream()); OutputStream out = s.getOutputStream()) {
                while (true) {
                    String head = line(in);
                    if (head == null) {
                        return;
                    }
                    int n = Integer.parseInt(head.substring(1));
                    for (int i = 0; i < n; i++) {
                        int len = Integer.parseInt(line(in).substring(1));
                        in.readNBytes(len + 2);
                    }
                    out.write("-NOAUTH Authentication required.\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
            } catch (IOException | RuntimeException e) {
                // the client went away
            }
        }

        static String line(InputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    return null;
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }

        String uri() {
            return "redis://127.0.0.1:" + socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aConnectionClosedInTheHandshakeIsTriedAgainAndTheServersErrorReported() throws Exception {
        try (RefusingServer server = new RefusingServer(1)) {
            Tool t = Tool.run("inspect", server.uri());
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("authentication to 127.0.0.1:" + server.socket.getLocalPort() + " failed"),
                    t.err());
            assertTrue(t.err().contains("NOAUTH"), t.err());
            assertEquals(2, server.accepted.get(), "connected once more after the close");
        }
    }

    @Test
    void aServerThatAlwaysClosesIsTriedThreeTimesThenReported() throws Exception {
        try (RefusingServer server = new RefusingServer(Integer.MAX_VALUE)) {
            Tool t = Tool.run("inspect", server.uri());
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("cannot connect to 127.0.0.1:" + server.socket.getLocalPort()), t.err());
            assertEquals(3, server.accepted.get(), t.err());
        }
    }
}
