package io.rubinbft.orderer.e2e;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Kills the node processes a test class starts: after each test the clusters that test started, and
 * after all of them any still running (a failure in set-up or in another extension), so no node
 * process outlives the tests. Register it as a static field.
 */
final class ProcessClusters implements AfterEachCallback, AfterAllCallback {

  private final List<ProcessCluster> started = new CopyOnWriteArrayList<>();
  private final List<ProcessCluster> ofThisTest = new CopyOnWriteArrayList<>();

  /** Registers {@code cluster} to be killed; returns it. */
  ProcessCluster track(ProcessCluster cluster) {
    started.add(cluster);
    ofThisTest.add(cluster);
    return cluster;
  }

  @Override
  public void afterEach(ExtensionContext context) throws InterruptedException {
    for (ProcessCluster cluster : ofThisTest) {
      cluster.close();
    }
    ofThisTest.clear();
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    for (ProcessCluster cluster : started) {
      cluster.close();
    }
  }
}
