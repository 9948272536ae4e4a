package dev.kubeloop.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Runs a table row of queue operations against a {@link PriorityWorkQueue} on a
 * {@link ManualTicker}, asserting as it goes. Steps (priorities optional, default NORMAL):
 *
 * <pre>
 *   add ITEM [PRIORITY]          after ITEM DELAY [PRIORITY]     limited ITEM [PRIORITY]
 *   get ITEM [PRIORITY]  (something must be ready; it must be ITEM, handed out at PRIORITY)
 *   get none  (shut down, empty)
 *   done ITEM  len N  depth N  waiting N  tracked N  requeues ITEM N  forget ITEM
 *   tick DELAY  shutdown
 * </pre>
 *
 * DELAY is an ISO-8601 duration body such as {@code 5s} or {@code 250ms}.
 */
final class QueueScript {

    private QueueScript() {
    }

    static void run(Duration starvationThreshold, List<String> steps) throws InterruptedException {
        ManualTicker ticker = new ManualTicker();
        PriorityWorkQueue<String> queue = PriorityWorkQueue.<String>builder("script")
                .ticker(ticker)
                .starvationThreshold(starvationThreshold)
                .rateLimiter(new ExponentialBackoffRateLimiter<>(Duration.ofMillis(5), Duration.ofSeconds(1000)))
                .build();
        for (String step : steps) {
            String[] word = step.trim().split("\\s+");
            String why = "step '" + step + "' of " + steps;
            switch (word[0]) {
                case "add" -> queue.add(word[1], priority(word, 2));
                case "after" -> queue.addAfter(word[1], duration(word[2]), priority(word, 3));
                case "limited" -> queue.addRateLimited(word[1], priority(word, 2));
                case "forget" -> queue.forget(word[1]);
                case "requeues" -> assertThat(queue.numRequeues(word[1])).as(why).isEqualTo(Integer.parseInt(word[2]));
                case "get" -> {
                    if (word[1].equals("none")) {
                        assertThat(queue.get()).as(why).isEmpty();
                    } else {
                        // get() blocks when nothing is ready: check first so a wrong script fails fast.
                        assertThat(queue.len()).as(why + ": nothing ready").isPositive();
                        Optional<WorkQueue.Prioritized<String>> item = queue.getWithPriority();
                        assertThat(item.map(WorkQueue.Prioritized::item)).as(why).contains(word[1]);
                        if (word.length > 2) {
                            assertThat(item.get().priority()).as(why + ": priority").isEqualTo(priority(word, 2));
                        }
                    }
                }
                case "done" -> queue.done(word[1]);
                case "len" -> assertThat(queue.len()).as(why).isEqualTo(Integer.parseInt(word[1]));
                case "depth" -> assertThat(queue.stats().depth()).as(why).isEqualTo(Integer.parseInt(word[1]));
                case "tracked" -> assertThat(queue.trackedItems()).as(why).isEqualTo(Integer.parseInt(word[1]));
                case "waiting" -> assertThat(queue.stats().waiting()).as(why).isEqualTo(Integer.parseInt(word[1]));
                case "tick" -> ticker.advance(duration(word[1]));
                case "shutdown" -> queue.shutDown();
                default -> throw new IllegalArgumentException("unknown step: " + step);
            }
        }
    }

    private static int priority(String[] word, int index) {
        if (word.length <= index) {
            return WorkQueue.NORMAL_PRIORITY;
        }
        return switch (word[index]) {
            case "LOW" -> WorkQueue.LOW_PRIORITY;
            case "NORMAL" -> WorkQueue.NORMAL_PRIORITY;
            default -> Integer.parseInt(word[index]);
        };
    }

    static Duration duration(String text) {
        if (text.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2)));
        }
        return Duration.parse("PT" + text.toUpperCase());
    }
}
