package io.blobingest.testkit.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 that makes a local server behave like a remote one: every
 * request/response exchange waits {@code delay} before the first byte of its response reaches the
 * client (a same-region S3 GET's first byte: about 20 ms), and, with a bandwidth cap, all
 * responses together flow no faster than the cap (one link shared by every connection). An
 * exchange starts when the client sends bytes after the last response bytes; HTTP/1.1 keep-alive
 * connections, as S3 clients use them, have one exchange per request. Requests pass at once.
 *
 * <p>It can also {@link #stall()} the link, as a network partition that drops packets without a
 * reset would: every byte either way is held, connections stay open and new ones are accepted,
 * until {@link #resume()} lets everything through again. The bench uses the delay, the chaos tests
 * the stall.
 */
public final class LatencyProxy implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final InetSocketAddress target;
    private final long delayNanos;
    private final long bytesPerSecond;
    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicLong exchanges = new AtomicLong();
    private final AtomicLong responseBytes = new AtomicLong();
    private final AtomicLong refusedConnections = new AtomicLong();
    /** When the shared link is free again: the end of the last response chunk's transfer time. */
    private long linkFreeAt;

    private volatile boolean closed;
    private boolean stalled;

    /**
     * @param bytesPerSecond the cap on all responses together; 0: none
     */
    public LatencyProxy(InetSocketAddress target, Duration delay, long bytesPerSecond) throws IOException {
        this.target = target;
        this.delayNanos = delay.toNanos();
        this.bytesPerSecond = bytesPerSecond;
        this.server = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::accept, "latency-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy that adds nothing: bytes pass as they come, until {@link #stall()}. */
    public LatencyProxy(InetSocketAddress target) throws IOException {
        this(target, Duration.ZERO, 0);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Request/response exchanges delayed so far: one per HTTP request (GET, HEAD, ...). */
    public long exchanges() {
        return exchanges.get();
    }

    /** Response bytes passed to clients so far. */
    public long responseBytes() {
        return responseBytes.get();
    }

    /** Client connections closed at once because the target refused the proxy's connection. */
    public long refusedConnections() {
        return refusedConnections.get();
    }

    /** Holds every byte either way from now on, until {@link #resume()}. */
    public synchronized void stall() {
        stalled = true;
    }

    /** Lets the bytes held since {@link #stall()} and all later ones pass again. */
    public synchronized void resume() {
        stalled = false;
        notifyAll();
    }

    private synchronized void awaitNotStalled() throws InterruptedIOException {
        while (stalled && !closed) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the link is stalled");
            }
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("latency proxy: accept failed: " + e);
                }
                return;
            }
            try {
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(upstream);
                AtomicBoolean awaitingResponse = new AtomicBoolean();
                int id = connections.incrementAndGet();
                start("latency-proxy-" + id + "-request", () -> pump(client, upstream, awaitingResponse, false));
                start("latency-proxy-" + id + "-response", () -> pump(upstream, client, awaitingResponse, true));
            } catch (IOException e) {
                // Every one is counted; the first, and then every 100th, printed: a stopped server refuses hundreds.
                long refused = refusedConnections.incrementAndGet();
                if (refused % 100 == 1) {
                    System.err.println(
                            "latency proxy: cannot reach " + target + " (" + refused + " connections so far): " + e);
                }
                closeQuietly(client);
            }
        }
    }

    private static void start(String name, Runnable pump) {
        Thread thread = new Thread(pump, name);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Copies {@code from} to {@code to} until either side closes. Requests mark the exchange as
     * waiting for its response; the first response bytes of an exchange wait the delay; every
     * response chunk waits for its turn on the capped link.
     */
    private void pump(Socket from, Socket to, AtomicBoolean awaitingResponse, boolean response) {
        byte[] buffer = new byte[BUFFER];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (!response) {
                    awaitingResponse.set(true);
                } else {
                    if (awaitingResponse.getAndSet(false)) {
                        exchanges.incrementAndGet();
                        sleepNanos(delayNanos);
                    }
                    throttle(n);
                    responseBytes.addAndGet(n);
                }
                awaitNotStalled();
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // The other side closed the connection: the client is done with it.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void throttle(int bytes) {
        if (bytesPerSecond <= 0) {
            return;
        }
        long now = System.nanoTime();
        long done;
        synchronized (this) {
            long start = Math.max(now, linkFreeAt);
            done = start + bytes * 1_000_000_000L / bytesPerSecond;
            linkFreeAt = done;
        }
        sleepNanos(done - now);
    }

    private static void sleepNanos(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing: nothing more to do with it.
        }
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        server.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
