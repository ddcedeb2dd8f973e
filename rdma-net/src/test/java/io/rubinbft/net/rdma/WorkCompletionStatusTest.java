package io.rubinbft.net.rdma;

import static org.assertj.core.api.Assertions.assertThat;

import io.rubinbft.net.verbs.CompletionStatus;
import org.junit.jupiter.api.Test;

class WorkCompletionStatusTest {

  @Test
  void mapsTheStatusesTheLayerAboveActsOn() {
    assertThat(WorkCompletionStatus.of(0)).isEqualTo(CompletionStatus.SUCCESS);
    assertThat(WorkCompletionStatus.of(1)).isEqualTo(CompletionStatus.LOCAL_LENGTH_ERROR);
    assertThat(WorkCompletionStatus.of(5)).isEqualTo(CompletionStatus.FLUSHED);
    assertThat(WorkCompletionStatus.of(9)).isEqualTo(CompletionStatus.REMOTE_INVALID_REQUEST);
    assertThat(WorkCompletionStatus.of(12)).isEqualTo(CompletionStatus.TRANSPORT_RETRY_EXCEEDED);
    assertThat(WorkCompletionStatus.of(13)).isEqualTo(CompletionStatus.RECEIVER_NOT_READY);
  }

  @Test
  void mapsEveryOtherStatusToOtherError() {
    // IBV_WC_LOC_QP_OP_ERR .. IBV_WC_REM_OP_ERR but REM_INV_REQ_ERR, then IBV_WC_REM_ABORT_ERR ..
    // IBV_WC_GENERAL_ERR
    for (int status : new int[] {2, 3, 4, 6, 7, 8, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21}) {
      assertThat(WorkCompletionStatus.of(status))
          .as("status %d", status)
          .isEqualTo(CompletionStatus.OTHER_ERROR);
    }
  }
}
