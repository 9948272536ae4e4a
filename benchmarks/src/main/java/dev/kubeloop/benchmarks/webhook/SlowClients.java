package dev.kubeloop.benchmarks.webhook;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Holds {@code count} connections to a port open, each sending a TLS ClientHello one byte a second
 * (the handshake never completes), reopening any the server closes: the slow-client load of the
 * issue's report, on loopback. One thread, {@code slow-clients}, stopped by {@link #close}.
 */
final class SlowClients implements AutoCloseable {

    /** A ClientHello record header and the start of its body: only ever sent a byte at a time. */
    private static final byte[] HELLO = {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, (byte) 0xfc, 0x03, 0x03};

    private final int port;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Integer> sent = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long reopened;

    SlowClients(int port, int count) {
        this.port = port;
        for (int i = 0; i < count; i++) {
            sockets.add(null);
            sent.add(0);
        }
        thread = new Thread(this::loop, "slow-clients");
        thread.setDaemon(true);
        thread.start();
    }

    /** Connections the server closed and this reopened. */
    long reopened() {
        return reopened;
    }

    private void loop() {
        while (running) {
            for (int i = 0; i < sockets.size(); i++) {
                try {
                    Socket socket = sockets.get(i);
                    if (socket == null) {
                        socket = new Socket(InetAddress.getLoopbackAddress(), port);
                        sockets.set(i, socket);
                        sent.set(i, 0);
                    }
                    int next = sent.get(i);
                    OutputStream out = socket.getOutputStream();
                    out.write(HELLO[next % HELLO.length]);
                    out.flush();
                    sent.set(i, next + 1);
                } catch (IOException closed) {
                    closeQuietly(sockets.get(i));
                    sockets.set(i, null);
                    reopened++;
                }
            }
            try {
                TimeUnit.SECONDS.sleep(1);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing anyway; the caller sees the interrupt
        }
        sockets.forEach(SlowClients::closeQuietly);
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
