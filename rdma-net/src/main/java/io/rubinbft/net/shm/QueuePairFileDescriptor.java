package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionStatus;
import org.jspecify.annotations.Nullable;

/**
 * Layout of one side of a queue pair: the file {@code dev-KEY/qp-N} its device creates and the peer
 * maps. It holds what the peer must see: identity, the answer to a connection request, the side's
 * state and its receive ring. Send descriptors stay in the sending process ({@link SendQueue}),
 * where a faulty peer cannot alter them. The owner writes everything except where noted; words two
 * processes write live on their own 64-byte lines.
 *
 * <pre>
 *  0                   8         12        16
 *  +-------------------+---------+---------+
 *  | magic "RUBINSQP"  | version | recvDep |                        0
 *  | owner device key  | owner pid         | owner start (ms)       16
 *  | peer device key*  | peerQp* | pdLen   | private data (56)      40
 *  +-----------------------------------------------------------+
 *  | connection state* (connector's file: REQUESTED, ACCEPTED, |  128
 *  |   REJECTED by the acceptor, ABANDONED by the connector)   |
 *  | queue pair state (OPEN, ERROR, DISCONNECTED, CLOSED)      |  192
 *  | reason* length + UTF-8 text (124): why REJECTED           |  256
 *  | receives posted (owner, release)                          |  384
 *  | receives delivered* (peer CAS; owner CAS sets CLOSED bit) |  448
 *  +-----------------------------------------------------------+
 *  | receive slots [recvDep] x 24:                             |  512
 *  |   offset 8 | region 4 | capacity 4 |                       |
 *  |   byteLength* 4 | status* 4                               |
 *  +-----------------------------------------------------------+
 *  * written by the peer
 * </pre>
 */
final class QueuePairFileDescriptor {

  static final long MAGIC = 0x5051_534e_4942_5552L; // "RUBINSQP" little-endian
  static final int VERSION = 1;
  static final int MAX_PRIVATE_DATA = 56;
  static final int MAX_REASON_BYTES = 124;
  static final int MAX_QUEUE_DEPTH = 1 << 16;

  static final long MAGIC_OFFSET = 0;
  static final long VERSION_OFFSET = 8;
  static final long RECEIVE_DEPTH_OFFSET = 12;
  static final long OWNER_KEY_OFFSET = 16;
  static final long OWNER_PID_OFFSET = 24;
  static final long OWNER_START_OFFSET = 32;
  static final long PEER_KEY_OFFSET = 40;
  static final long PEER_QP_FILE_OFFSET = 48;
  static final long PRIVATE_DATA_LENGTH_OFFSET = 52;
  static final long PRIVATE_DATA_OFFSET = 56;
  static final long CONNECTION_STATE_OFFSET = 128;
  static final long QUEUE_PAIR_STATE_OFFSET = 192;
  static final long REASON_LENGTH_OFFSET = 256;
  static final long REASON_OFFSET = 260;
  static final long RECEIVES_POSTED_OFFSET = 384;
  static final long RECEIVES_DELIVERED_OFFSET = 448;
  static final long RECEIVE_SLOTS_OFFSET = 512;

  static final int SLOT_BYTES = 24;
  static final long SLOT_OFFSET = 0;
  static final long SLOT_REGION = 8;
  static final long SLOT_LENGTH = 12;
  static final long SLOT_BYTE_LENGTH = 16;
  static final long SLOT_STATUS = 20;

  /** Set in the delivered word when the receive ring closes: the peer delivers nothing more. */
  static final long DELIVERED_CLOSED = 1L << 62;

  /** Cached: {@code values()} would allocate on every completion. */
  private static final CompletionStatus[] STATUSES = CompletionStatus.values();

  private QueuePairFileDescriptor() {}

  static long fileBytes(int receiveDepth) {
    return RECEIVE_SLOTS_OFFSET + (long) receiveDepth * SLOT_BYTES;
  }

  /** The word stored in a slot for {@code status}; 0 means "not completed yet". */
  static int statusCode(CompletionStatus status) {
    return status.ordinal() + 1;
  }

  /** The status for a stored word, or null when the word is no status (a peer's garbage). */
  static @Nullable CompletionStatus status(int code) {
    return code >= 1 && code <= STATUSES.length ? STATUSES[code - 1] : null;
  }
}
