package dev.kubeloop.webhook;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Bounds the open connections at {@code max}. At the limit a new connection does not wait and is
 * not refused while there is an open connection not serving a request: one of those is closed to
 * make room, the oldest of the first kind there is of: still in its TLS handshake (or silent);
 * past it but never answered (sending its first request slowly); idle after an answer (a client's
 * keep-alive connection, which it reopens). What an attacker cheaply holds goes first. Slow clients thus hold slots only until real traffic
 * needs them. Only when every connection is serving a request is the new one refused
 * ({@link ConnectionEnd#OVER_LIMIT}), and the API server applies the failurePolicy.
 *
 * <p>State ownership: {@code open}, {@code handshaking}, {@code unanswered} and {@code idle}
 * (insertion order: oldest first) are guarded by {@code this}; every event loop of the server adds
 * and removes its own channels.
 */
@ChannelHandler.Sharable
final class ConnectionLimit extends ChannelInboundHandlerAdapter {

    private final int max;
    private final WebhookServerStats stats;
    private final Set<Channel> handshaking = new LinkedHashSet<>();
    private final Set<Channel> unanswered = new LinkedHashSet<>();
    private final Set<Channel> idle = new LinkedHashSet<>();
    private int open;

    ConnectionLimit(int max, WebhookServerStats stats) {
        this.max = max;
        this.stats = stats;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        stats.connectionOpened();
        Channel victim = null;
        boolean refused = false;
        synchronized (this) {
            open++;
            if (open > max) {
                victim = takeOldest(handshaking);
                if (victim == null) {
                    victim = takeOldest(unanswered);
                }
                if (victim == null) {
                    victim = takeOldest(idle);
                }
                refused = victim == null;
            }
            if (!refused) {
                handshaking.add(ctx.channel());
            }
        }
        if (refused) {
            stats.closedFor(ConnectionEnd.OVER_LIMIT);
            ctx.close();
            return;
        }
        if (victim != null) {
            stats.closedFor(ConnectionEnd.EVICTED);
            victim.close();
        }
        ctx.fireChannelActive();
    }

    private static Channel takeOldest(Set<Channel> channels) {
        Iterator<Channel> oldest = channels.iterator();
        if (!oldest.hasNext()) {
            return null;
        }
        Channel channel = oldest.next();
        oldest.remove();
        return channel;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        synchronized (this) {
            open--;
            handshaking.remove(ctx.channel());
            unanswered.remove(ctx.channel());
            idle.remove(ctx.channel());
        }
        stats.connectionClosed();
        ctx.fireChannelInactive();
    }

    /** {@code channel} completed its TLS handshake. */
    synchronized void handshaken(Channel channel) {
        if (handshaking.remove(channel)) {
            unanswered.add(channel);
        }
    }

    /** {@code channel} is serving a request: not to be evicted until {@link #idle}. */
    synchronized void busy(Channel channel) {
        handshaking.remove(channel);
        unanswered.remove(channel);
        idle.remove(channel);
    }

    /** {@code channel} answered a request: evictable again, after every unanswered one, as the newest idle. */
    synchronized void idle(Channel channel) {
        if (channel.isActive()) {
            idle.remove(channel);
            idle.add(channel);
        }
    }
}
