package io.rubinbft.orderer.crypto;

import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Hands the bytes of a {@link ByteString} to a digest or signature engine where they lie. A
 * ByteString only offers read-only buffers of its bytes, and an engine given a read-only heap
 * buffer copies it into a new array first (ACCP and the JDK alike): for a Broadcast envelope's 3.5
 * KB payload that copy was as large as the envelope itself. The engines only read what they are
 * given, which is what makes handing them the ByteString's own array safe.
 */
final class InPlaceBytes extends ByteOutput {

  /**
   * An engine's {@code update(ByteBuffer)}: a Signature's (throws SignatureException) or a
   * MessageDigest's (throws nothing checked).
   */
  @FunctionalInterface
  interface Engine<E extends Exception> {
    void update(ByteBuffer bytes) throws E;
  }

  private final Engine<?> engine;

  private InPlaceBytes(Engine<?> engine) {
    this.engine = engine;
  }

  /** Feeds all of {@code bytes} to {@code engine}, in order, without copying them. */
  @SuppressWarnings("unchecked") // EngineFailed only ever carries what engine.update threw: an E
  static <E extends Exception> void feed(ByteString bytes, Engine<E> engine) throws E {
    try {
      UnsafeByteOperations.unsafeWriteTo(bytes, new InPlaceBytes(engine));
    } catch (EngineFailed e) {
      throw (E) e.getCause();
    } catch (IOException e) {
      throw new IllegalStateException("a ByteString fails to write its own bytes", e);
    }
  }

  @Override
  public void write(byte value) throws IOException {
    update(ByteBuffer.wrap(new byte[] {value}));
  }

  @Override
  public void write(byte[] value, int offset, int length) throws IOException {
    update(ByteBuffer.wrap(value, offset, length));
  }

  @Override
  public void writeLazy(byte[] value, int offset, int length) throws IOException {
    update(ByteBuffer.wrap(value, offset, length));
  }

  @Override
  public void write(ByteBuffer value) throws IOException {
    update(value);
  }

  @Override
  public void writeLazy(ByteBuffer value) throws IOException {
    update(value);
  }

  private void update(ByteBuffer bytes) throws EngineFailed {
    try {
      engine.update(bytes);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) { // the engine's checked E
      throw new EngineFailed(e);
    }
  }

  /** Carries the engine's own failure, its cause, through ByteOutput's IOException. */
  private static final class EngineFailed extends IOException {
    private static final long serialVersionUID = 1L;

    EngineFailed(Exception failure) {
      super(failure);
    }
  }
}
