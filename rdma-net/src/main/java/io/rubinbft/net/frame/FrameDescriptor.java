package io.rubinbft.net.frame;

/**
 * The one place that knows the wire layout of a frame. Every frame fills one receive slot at the
 * peer; all integers are little-endian (Agrona's native order on x86 and ARM).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |           frame length (header + payload + tag)               |  0
 *  +---------------+---------------+---------------+---------------+
 *  |    version    |     type      |flags B=1 E=2 X=4| reserved 0  |  4
 *  +---------------+---------------+---------------+---------------+
 *  |                message length (whole message)                 |  8
 *  +---------------------------------------------------------------+
 *  |         fragment offset (payload's offset in message)         | 12
 *  +---------------------------------------------------------------+
 *  |                  sequence number (64 bits)                    | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   credit: receive slots made available to the peer, ever      | 24
 *  |   (a monotonic position, 64 bits: the piggybacked window)     |
 *  +---------------------------------------------------------------+
 *  |                payload ... (encrypted)                        | 32
 *  +---------------------------------------------------------------+
 *  |     tag: AES-256-GCM over the payload with bytes [0, 32) as   | length - 16
 *  |     additional data, nonce = sequence number (zero on HELLO)  |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Every frame after the HELLO is encrypted and authenticated with its direction's key; the
 * header stays in the clear (the transport needs its length; the receiver checks it before the
 * tag), and the tag covers it.
 *
 * <p>Flags: B(egin) and E(nd) mark a message's first and last fragment; X (blocked) says the sender
 * has data waiting and no credit.
 *
 * <p>Sequence numbers count the frames of one direction from 0 (the HELLO); a receiver accepts
 * exactly the next one, so a replayed or reordered frame fails even with a valid tag.
 *
 * <p>The handshake is two frames each way, sent without waiting for a round trip: the HELLO (frame
 * 0, in the clear, not signed), then, once the peer's HELLO is in and the keys are derived, AUTH
 * (frame 1, encrypted): the sender's identity-key signature over {@link #AUTH_CONTEXT}, its role
 * code (one byte) and both HELLO payloads, the initiator's first. So the signature covers both
 * nonces, both ephemeral keys, both certificates, both transports and both parameter sets: a
 * recorded AUTH is worth nothing on another connection.
 *
 * <p>The payload of a HELLO frame:
 *
 * <pre>
 *  +---------------------------------------------------------------+
 *  |  receive slots the sender posts for its peer                  |  0
 *  +---------------------------------------------------------------+
 *  |  largest frame the sender accepts, in bytes                   |  4
 *  +---------------------------------------------------------------+
 *  |  largest message the sender accepts, in bytes                 |  8
 *  +---------------+-----------------------------------------------+
 *  | role I=1 A=2  |  reserved 0 (3 bytes)                         | 12
 *  +---------------+-----------------------------------------------+
 *  |  nonce (32 random bytes)                                      | 16
 *  +-------------------------------+-------------------------------+
 *  | ephemeral key length (16 bit) | X25519 public key (X.509) ... | 48
 *  +-------------------------------+-------------------------------+
 *  | certificate length (16 bit)   | X.509 certificate (DER) ...   |
 *  +-------------------------------+-------------------------------+
 *  | transport length (16 bit)     | transport name, ASCII ("tcp", "shm", "rdma", ...)
 *  +-------------------------------+-------------------------------+
 * </pre>
 *
 * <p>The payload of an AUTH frame: the signature, and nothing else.
 */
public final class FrameDescriptor {

  /**
   * 3: frames are encrypted (AES-256-GCM) and the handshake signature (AUTH) covers both HELLOs.
   * Version 2 sent frames in the clear with an AES-256-GMAC tag and signed each HELLO alone;
   * version 1 used HMAC-SHA256. Peers of different versions refuse each other's frames.
   */
  public static final byte VERSION = 3;

  public static final int LENGTH_OFFSET = 0;
  public static final int VERSION_OFFSET = 4;
  public static final int TYPE_OFFSET = 5;
  public static final int FLAGS_OFFSET = 6;
  public static final int RESERVED_OFFSET = 7;
  public static final int MESSAGE_LENGTH_OFFSET = 8;
  public static final int FRAGMENT_OFFSET_OFFSET = 12;
  public static final int SEQUENCE_OFFSET = 16;
  public static final int CREDIT_OFFSET = 24;
  public static final int HEADER_LENGTH = 32;

  public static final int TAG_LENGTH = 16;

  /** Header and tag: what a frame costs beyond its payload. */
  public static final int OVERHEAD = HEADER_LENGTH + TAG_LENGTH;

  /** First fragment of a message. */
  public static final byte FLAG_BEGIN = 1;

  /** Last fragment of a message; a message in one frame carries both flags. */
  public static final byte FLAG_END = 2;

  /** A message that fits in one frame. */
  public static final byte FLAGS_UNFRAGMENTED = FLAG_BEGIN | FLAG_END;

  /** The sender has data waiting and no credit: the receiver should say what it has freed. */
  public static final byte FLAG_BLOCKED = 4;

  /** Every flag a version-1 frame may carry. */
  public static final byte FLAGS_KNOWN = FLAGS_UNFRAGMENTED | FLAG_BLOCKED;

  public static final int HELLO_RECEIVE_SLOTS_OFFSET = 0;
  public static final int HELLO_MAX_FRAME_OFFSET = 4;
  public static final int HELLO_MAX_MESSAGE_OFFSET = 8;
  public static final int HELLO_ROLE_OFFSET = 12;
  public static final int HELLO_NONCE_OFFSET = 16;
  public static final int HELLO_NONCE_LENGTH = 32;
  public static final int HELLO_VARIABLE_OFFSET = HELLO_NONCE_OFFSET + HELLO_NONCE_LENGTH;

  /** Bytes the AUTH signature covers before the rest: binds it to this protocol and version. */
  public static final String AUTH_CONTEXT = "rubin-net auth v3";

  private FrameDescriptor() {}

  /** The largest payload a frame of {@code frameBytes} can carry. */
  public static int maxPayload(int frameBytes) {
    return frameBytes - OVERHEAD;
  }

  /** Where the tag of a frame of {@code frameLength} bytes starts. */
  public static int tagOffset(int frameLength) {
    return frameLength - TAG_LENGTH;
  }
}
