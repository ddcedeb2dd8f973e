package io.rubinbft.bft.wire;

/**
 * The outcome of decoding untrusted bytes: the value, or the precise reason the bytes are invalid
 * (for dropping and counting, docs/ARCHITECTURE.md principle 6).
 */
public sealed interface Decoded<T> {

  record Valid<T>(T value) implements Decoded<T> {}

  record Invalid<T>(String reason) implements Decoded<T> {}
}
