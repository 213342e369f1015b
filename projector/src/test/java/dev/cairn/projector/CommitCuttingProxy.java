package dev.cairn.projector;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy in front of a PostgreSQL server that, once armed, lets the next {@code COMMIT} a client sends reach
 * the server and then cuts that connection before the server's answer gets back: a commit whose outcome the client
 * cannot know.
 */
final class CommitCuttingProxy implements AutoCloseable {
    private static final byte[] COMMIT = "COMMIT".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern HOST_PORT = Pattern.compile("^jdbc:postgresql://([^/:]+):(\\d+)/");

    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private volatile boolean armed;

    private CommitCuttingProxy(ServerSocket listener, String host, int port) {
        this.listener = listener;
        this.host = host;
        this.port = port;
    }

    /** A proxy for the server of {@code url}. */
    static CommitCuttingProxy forUrl(String url) throws IOException {
        Matcher m = HOST_PORT.matcher(url);
        if (!m.find()) {
            throw new IllegalArgumentException("not a jdbc:postgresql://HOST:PORT/ URL: " + url);
        }
        CommitCuttingProxy proxy = new CommitCuttingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
                m.group(1), Integer.parseInt(m.group(2)));
        Thread accept = new Thread(proxy::accept, "commit-cutting-proxy");
        accept.setDaemon(true);
        accept.start();
        return proxy;
    }

    /**
     * {@code url} with its server replaced by this proxy, and without server-prepared statements, so that each
     * COMMIT goes as its text and not as a prepared statement's name.
     */
    String url(String url) {
        return HOST_PORT.matcher(url).replaceFirst("jdbc:postgresql://127.0.0.1:" + listener.getLocalPort() + "/")
                + (url.contains("?") ? "&" : "?") + "prepareThreshold=0";
    }

    /** Cuts the connection that sends the next COMMIT, after the server has had it. */
    void cutAfterNextCommit() {
        armed = true;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(host, port);
                sockets.add(client);
                sockets.add(server);
                AtomicBoolean cut = new AtomicBoolean();
                pump(client, server, true, cut);
                pump(server, client, false, cut);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** Copies {@code from} to {@code to}; once {@code cut} is set, nothing more reaches the client. */
    private void pump(Socket from, Socket to, boolean fromClient, AtomicBoolean cut) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) > 0) {
                    boolean commit = fromClient && armed && contains(buf, n);
                    if (commit) {
                        armed = false;
                        cut.set(true); // before the server can answer
                    }
                    if (!fromClient && cut.get()) {
                        return;
                    }
                    out.write(buf, 0, n);
                    out.flush();
                    if (commit) {
                        Thread.sleep(500); // the server commits and answers; the answer goes nowhere
                        return;
                    }
                }
            } catch (IOException e) {
                // one side closed: the other goes with it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "commit-cutting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private static boolean contains(byte[] buf, int n) {
        outer:
        for (int i = 0; i + COMMIT.length <= n; i++) {
            for (int j = 0; j < COMMIT.length; j++) {
                if (buf[i + j] != COMMIT[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            closeQuietly(s);
        }
    }
}
