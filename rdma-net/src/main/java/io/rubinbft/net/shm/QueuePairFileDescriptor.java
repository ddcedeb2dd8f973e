package io.rubinbft.net.shm;

import io.rubinbft.net.verbs.CompletionStatus;

/**
 * Layout of one side of a queue pair: the file {@code dev-KEY/qp-N} its device creates and the peer
 * maps. The owner writes everything except where noted; words two processes write live on their own
 * 64-byte lines.
 *
 * <pre>
 *  0                   8                   16                  24
 *  +-------------------+---------+---------+---------+---------+
 *  | magic "RUBINSQP"  | version | sendDep | recvDep | maxInl. |  0
 *  +-------------------+---------+---------+---------+---------+
 *  | owner device key  | owner pid         | owner start (ms)  |  24
 *  +-------------------+---------+---------+-------------------+
 *  | peer device key*  | peerQp* | pdLen   | private data (56) |  48
 *  +-------------------+---------+---------+-------------------+
 *  | connection state* (connector's file: REQUESTED, ACCEPTED, |  128
 *  |   REJECTED by the acceptor, ABANDONED by the connector)   |
 *  | queue pair state (OPEN, ERROR, DISCONNECTED, CLOSED)      |  192
 *  | reason* length + UTF-8 text (124): why REJECTED           |  256
 *  | receives posted (owner, release)                          |  384
 *  | receives delivered* (peer CAS; owner CAS sets CLOSED bit) |  448
 *  +-----------------------------------------------------------+
 *  | receive slots [recvDep] x 32:                             |  512
 *  |   wrId 8 | offset 8 | region 4 | length 4 |               |
 *  |   byteLength* 4 | status* 4                               |
 *  | send slots [sendDep] x 32:                                |
 *  |   wrId 8 | offset 8 | region 4 | length 4 | flags 4 | st 4|
 *  | inline data [sendDep] x roundUp8(maxInline)               |
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
  static final int MAX_INLINE_BYTES = 1024;

  static final long MAGIC_OFFSET = 0;
  static final long VERSION_OFFSET = 8;
  static final long SEND_DEPTH_OFFSET = 12;
  static final long RECEIVE_DEPTH_OFFSET = 16;
  static final long MAX_INLINE_OFFSET = 20;
  static final long OWNER_KEY_OFFSET = 24;
  static final long OWNER_PID_OFFSET = 32;
  static final long OWNER_START_OFFSET = 40;
  static final long PEER_KEY_OFFSET = 48;
  static final long PEER_QP_FILE_OFFSET = 56;
  static final long PRIVATE_DATA_LENGTH_OFFSET = 60;
  static final long PRIVATE_DATA_OFFSET = 64;
  static final long CONNECTION_STATE_OFFSET = 128;
  static final long QUEUE_PAIR_STATE_OFFSET = 192;
  static final long REASON_LENGTH_OFFSET = 256;
  static final long REASON_OFFSET = 260;
  static final long RECEIVES_POSTED_OFFSET = 384;
  static final long RECEIVES_DELIVERED_OFFSET = 448;
  static final long RECEIVE_SLOTS_OFFSET = 512;

  static final int SLOT_BYTES = 32;
  static final long SLOT_WR_ID = 0;
  static final long SLOT_OFFSET = 8;
  static final long SLOT_REGION = 16;
  static final long SLOT_LENGTH = 20;
  static final long RECEIVE_SLOT_BYTE_LENGTH = 24;
  static final long SEND_SLOT_FLAGS = 24;
  static final long SLOT_STATUS = 28;

  static final int FLAG_SIGNALED = 1;
  static final int FLAG_INLINE = 2;

  /** Set in the delivered word when the receive ring closes: the peer delivers nothing more. */
  static final long DELIVERED_CLOSED = 1L << 62;

  /** Cached: {@code values()} would allocate on every completion. */
  private static final CompletionStatus[] STATUSES = CompletionStatus.values();

  private QueuePairFileDescriptor() {}

  static long sendSlotsOffset(int receiveDepth) {
    return RECEIVE_SLOTS_OFFSET + (long) receiveDepth * SLOT_BYTES;
  }

  static long inlineOffset(int sendDepth, int receiveDepth) {
    return sendSlotsOffset(receiveDepth) + (long) sendDepth * SLOT_BYTES;
  }

  static int inlineStride(int maxInline) {
    return (maxInline + 7) & ~7;
  }

  static long fileBytes(int sendDepth, int receiveDepth, int maxInline) {
    return inlineOffset(sendDepth, receiveDepth) + (long) sendDepth * inlineStride(maxInline);
  }

  /** The word stored in a slot for {@code status}; 0 means "not completed yet". */
  static int statusCode(CompletionStatus status) {
    return status.ordinal() + 1;
  }

  /** The status for a stored word, or null when the word is no status (a peer's garbage). */
  static CompletionStatus status(int code) {
    return code >= 1 && code <= STATUSES.length ? STATUSES[code - 1] : null;
  }
}
