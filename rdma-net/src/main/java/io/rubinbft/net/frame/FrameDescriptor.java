package io.rubinbft.net.frame;

/**
 * The one place that knows the wire layout of a frame. Every frame fills one receive slot at the
 * peer; all integers are little-endian (Agrona's native order on x86 and ARM).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |           frame length (header + payload + MAC)               |  0
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
 *  |                       payload ...                             | 32
 *  +---------------------------------------------------------------+
 *  |     MAC: AES-256-GMAC tag over bytes [0, length - 16), nonce  | length - 16
 *  |     = sequence number (all zero on HELLO, before the key)     |
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Flags: B(egin) and E(nd) mark a message's first and last fragment; X (blocked) says the sender
 * has data waiting and no credit.
 *
 * <p>Sequence numbers count the frames of one direction from 0 (the HELLO); a receiver accepts
 * exactly the next one, so a replayed or reordered frame fails even with a valid MAC.
 *
 * <p>The payload of a HELLO frame (the handshake, signed with the sender's identity key):
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
 *  | signature length (16 bit)     | signature over HELLO_CONTEXT and every byte above it
 *  +-------------------------------+-------------------------------+
 * </pre>
 */
public final class FrameDescriptor {

  /** 2: the MAC became AES-256-GMAC (version 1 used HMAC-SHA256). */
  public static final byte VERSION = 2;

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

  public static final int MAC_LENGTH = 16;

  /** Header and MAC: what a frame costs beyond its payload. */
  public static final int OVERHEAD = HEADER_LENGTH + MAC_LENGTH;

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

  /** Bytes the HELLO signature covers before the payload: binds it to this protocol. */
  public static final String HELLO_CONTEXT = "rubin-net hello v1";

  private FrameDescriptor() {}

  /** The largest payload a frame of {@code frameBytes} can carry. */
  public static int maxPayload(int frameBytes) {
    return frameBytes - OVERHEAD;
  }

  /** Where the MAC of a frame of {@code frameLength} bytes starts. */
  public static int macOffset(int frameLength) {
    return frameLength - MAC_LENGTH;
  }
}
