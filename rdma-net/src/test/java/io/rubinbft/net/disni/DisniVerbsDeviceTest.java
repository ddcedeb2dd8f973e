package io.rubinbft.net.disni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where libdisni is missing (everywhere the project builds: no registry ships it), opening the
 * DiSNI binding fails with a message that says what is missing and which transport to choose
 * instead. Where libdisni loads, this is skipped with that reason; the contract runs there instead
 * (DisniChannelContractVmTest).
 */
@ExtendWith(DisniVerbsDeviceTest.WithoutLibdisni.class)
class DisniVerbsDeviceTest {

  @Test
  void saysWhatIsMissingAndWhichTransportToChooseInstead() {
    DisniUnavailableException unavailable =
        catchThrowableOfType(
            DisniUnavailableException.class,
            () -> DisniVerbsDevice.open(InetAddress.getLoopbackAddress()));

    assertThat(unavailable.getMessage())
        .startsWith("disni transport unavailable: libdisni (DiSNI's JNI library) cannot be loaded")
        .contains("-Djava.library.path=")
        .contains("choose transport rdma")
        .contains("tcp")
        .contains("shm");
  }

  /** Runs the test only where the JVM cannot load libdisni. */
  static final class WithoutLibdisni implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      try {
        System.loadLibrary("disni");
        return ConditionEvaluationResult.disabled(
            "libdisni loads here: the DiSNI binding's contract tests run instead");
      } catch (UnsatisfiedLinkError e) {
        return ConditionEvaluationResult.enabled("libdisni is missing: " + e.getMessage());
      }
    }
  }
}
