/**
 * The replicas' wire format (WIRE.md): canonical bytes for every {@link
 * io.rubinbft.bft.message.Message} sent between replicas and every {@link
 * io.rubinbft.bft.WalRecord} a replica persists. Decoding treats its input as hostile: it never
 * throws, checks every length against the remaining bytes and the {@link
 * io.rubinbft.bft.wire.WireLimits} before allocating, and says precisely why bytes are invalid.
 */
package io.rubinbft.bft.wire;
