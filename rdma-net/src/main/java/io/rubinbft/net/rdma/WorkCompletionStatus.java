package io.rubinbft.net.rdma;

import io.rubinbft.net.verbs.CompletionStatus;

/**
 * Maps verbs' {@code enum ibv_wc_status} onto the SPI's {@link CompletionStatus} (rdma-core and
 * DiSNI).
 */
public final class WorkCompletionStatus {

  private WorkCompletionStatus() {}

  public static CompletionStatus of(int ibvWcStatus) {
    return switch (ibvWcStatus) {
      case VerbsLayouts.IBV_WC_SUCCESS -> CompletionStatus.SUCCESS;
      case VerbsLayouts.IBV_WC_LOC_LEN_ERR -> CompletionStatus.LOCAL_LENGTH_ERROR;
      case VerbsLayouts.IBV_WC_WR_FLUSH_ERR -> CompletionStatus.FLUSHED;
      case VerbsLayouts.IBV_WC_REM_INV_REQ_ERR -> CompletionStatus.REMOTE_INVALID_REQUEST;
      case VerbsLayouts.IBV_WC_RETRY_EXC_ERR -> CompletionStatus.TRANSPORT_RETRY_EXCEEDED;
      case VerbsLayouts.IBV_WC_RNR_RETRY_EXC_ERR -> CompletionStatus.RECEIVER_NOT_READY;
      default -> CompletionStatus.OTHER_ERROR;
    };
  }
}
