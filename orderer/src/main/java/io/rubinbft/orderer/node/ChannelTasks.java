package io.rubinbft.orderer.node;

import io.rubinbft.orderer.concurrent.Worker;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one-shot tasks the lifecycle thread starts for its channels (asking the orderers for a newer
 * config block, pulling for a catch-up), kept per channel so that none outlives its channel: a
 * removed channel's tasks are stopped, and waited for, before its ledger is deleted, and every task
 * when the node stops, before the block store closes. Each stop waits at most the task's own
 * deadline ({@link Worker#DEFAULT_STOP_DEADLINE} unless it says otherwise). Used on the lifecycle
 * thread only.
 */
final class ChannelTasks {

  private final Map<String, List<Worker>> running = new HashMap<>();

  /** Starts {@code task} for channel {@code name}, forgetting those of its tasks that ended. */
  void start(String name, Worker task) {
    List<Worker> tasks = running.computeIfAbsent(name, n -> new ArrayList<>());
    tasks.removeIf(t -> !t.alive());
    tasks.add(task);
    task.start();
  }

  /**
   * Stops the tasks of channel {@code name} and waits until they ended, each within its deadline.
   *
   * @return false when one still runs at its deadline (logged by the worker)
   */
  boolean stop(String name) {
    List<Worker> tasks = running.remove(name);
    boolean stopped = true;
    if (tasks != null) {
      for (Worker task : tasks) {
        stopped &= task.stop();
      }
    }
    return stopped;
  }

  /** Stops every channel's tasks, as {@link #stop} does. */
  boolean stopAll() {
    boolean stopped = true;
    for (String name : List.copyOf(running.keySet())) {
      stopped &= stop(name);
    }
    return stopped;
  }

  /** How many tasks of channel {@code name} still run. */
  int runningOf(String name) {
    return (int) running.getOrDefault(name, List.of()).stream().filter(Worker::alive).count();
  }
}
