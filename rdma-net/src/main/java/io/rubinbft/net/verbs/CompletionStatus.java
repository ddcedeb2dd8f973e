package io.rubinbft.net.verbs;

/**
 * The outcome of a work request, after {@code ibv_wc_status}; anything but SUCCESS fails the pair.
 */
public enum CompletionStatus {
  SUCCESS,
  /** The peer had no receive posted, past the retry limit: the failure that crashed RUBIN. */
  RECEIVER_NOT_READY,
  /** The pair went to the error state; outstanding requests are flushed with this status. */
  FLUSHED,
  /** The message was longer than the posted receive buffer. */
  LOCAL_LENGTH_ERROR,
  /** The peer could not be reached or stopped answering. */
  TRANSPORT_RETRY_EXCEEDED,
  /** Any other device-reported failure. */
  OTHER_ERROR,
  /**
   * The sender's side of a receiver's error: the peer refused the message because it was longer
   * than the posted receive buffer, or the receive named memory the peer does not have ({@code
   * IBV_WC_REM_INV_REQ_ERR}). Last, because shm stores statuses by position in shared files.
   */
  REMOTE_INVALID_REQUEST
}
