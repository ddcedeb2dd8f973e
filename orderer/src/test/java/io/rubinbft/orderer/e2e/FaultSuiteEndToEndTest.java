package io.rubinbft.orderer.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 18's fault suite: one cluster of four node processes with the launcher's memory defaults
 * suffers one fault per test, in order, while a gateway-style load orders transactions. After each
 * fault: no node died (nor logged heap exhaustion or a thread death), the channel ordered on within
 * the view-change timeout plus {@link FaultCluster#RESUME_BOUND}, every node holds the same valid
 * chain, every transaction a quorum acknowledged is in it exactly once, heap and RSS in budget.
 * Progress only, never speed. The stop of a backup lasts 15 s here, 60 s with {@code
 * -Dfaults.stopSeconds=60} (the long suite's value).
 */
@Tag("multiprocess")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultSuiteEndToEndTest {

  private static final Logger LOG = LoggerFactory.getLogger(FaultSuiteEndToEndTest.class);

  private static final Duration STOPPED =
      Duration.ofSeconds(Integer.getInteger("faults.stopSeconds", 15));

  /**
   * Longer than the request-complain timeout (as long as the view-change timeout): the cut node's
   * request timer fires while it is cut off.
   */
  private static final Duration PARTITIONED = FaultCluster.VIEW_CHANGE_TIMEOUT.plusSeconds(5);

  private static FaultCluster faults;

  @RegisterExtension
  final TestExecutionExceptionHandler nodeLogsOnFailure =
      ProcessCluster.logsOnFailure(() -> faults == null ? null : faults.cluster());

  @BeforeAll
  static void startCluster() throws Exception {
    Path dir = Files.createDirectories(Path.of("target", "multiproc")).toAbsolutePath();
    faults = FaultCluster.start(Files.createTempDirectory(dir, "faults-"));
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (faults != null) {
      LOG.info("fault suite memory: {}", faults.memoryFigures());
      faults.close();
    }
  }

  @BeforeEach
  void startLoad(TestInfo test) throws Exception {
    faults.note("==== " + test.getDisplayName());
    faults.load().start();
  }

  @AfterEach
  void stopLoad() throws Exception {
    faults.load().stop();
  }

  @Test
  @Order(1)
  void aBackupKilledAndRestarted() throws Exception {
    faults.killAndRestart(faults.backup(faults.diskNode()), Duration.ofSeconds(3));
    settleAndCheck();
  }

  @Test
  @Order(2)
  void thePrimaryKilledAndRestarted() throws Exception {
    faults.killAndRestart(faults.leader(), Duration.ofSeconds(3));
    settleAndCheck();
  }

  @Test
  @Order(3)
  void aBackupStoppedAndResumed() throws Exception {
    faults.pauseAndResume(faults.backup(faults.diskNode()), STOPPED);
    settleAndCheck();
  }

  @Test
  @Order(6)
  void aBackupPartitionedAndHealed() throws Exception {
    faults.isolate(faults.backup(faults.diskNode()), PARTITIONED);
    settleAndCheck();
  }

  @Test
  @Order(5)
  void aNodeRestartedWithAnEmptyDataFolderRejoins() throws Exception {
    faults.restartWithEmptyDataFolder(faults.backup(faults.diskNode()));
    settleAndCheck();
  }

  @Test
  @Order(4)
  void aNodeWithAFullDisk() throws Exception {
    faults.fillDisk(Duration.ofSeconds(5));
    settleAndCheck();
  }

  @Test
  @Order(7)
  void allFourRestartedAtOnce() throws Exception {
    faults.restartAll();
    settleAndCheck();
  }

  private static void settleAndCheck() throws Exception {
    faults.load().stop();
    faults.checkEverything();
  }
}
