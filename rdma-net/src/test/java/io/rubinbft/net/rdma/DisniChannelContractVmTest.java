package io.rubinbft.net.rdma;

import io.rubinbft.net.ChannelContractTest;
import io.rubinbft.net.disni.DisniVerbsDevice;
import io.rubinbft.net.transport.Transport;
import io.rubinbft.net.verbs.VerbsException;
import io.rubinbft.net.verbs.provider.VerbsTransport;
import java.io.IOException;
import java.net.InetAddress;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The channel contract over VerbsTransport on the DiSNI binding. It runs only where libdisni and an
 * RDMA device exist (no registry ships libdisni, so not in the Soft-RoCE guest as built), and is
 * reported as skipped with the reason everywhere else.
 */
@Tag("rdma-vm")
@ExtendWith(DisniChannelContractVmTest.WhereDisniOpens.class)
class DisniChannelContractVmTest extends ChannelContractTest {

  @Override
  protected Transport newTransport() throws IOException {
    InetAddress rdmaAddress = SoftRoce.anyPort().getAddress();
    return new SoftRoceAddresses(
        VerbsTransport.open(DisniVerbsDevice.open(rdmaAddress), 4096, 256), rdmaAddress);
  }

  /** Enables the suite where a DiSNI device opens at the RDMA address; otherwise says why not. */
  static final class WhereDisniOpens implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      try (DisniVerbsDevice device = DisniVerbsDevice.open(SoftRoce.anyPort().getAddress())) {
        return ConditionEvaluationResult.enabled("DiSNI device " + device.name() + " opens");
      } catch (VerbsException e) {
        return ConditionEvaluationResult.disabled(e.getMessage());
      } catch (IOException e) {
        return ConditionEvaluationResult.disabled("no RDMA address: " + e.getMessage());
      }
    }
  }
}
