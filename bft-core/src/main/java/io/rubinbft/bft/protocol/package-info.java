/**
 * PBFT (Castro-Liskov OSDI'99) as a deterministic state machine. {@link
 * io.rubinbft.bft.protocol.Replica} is the entry point; the other classes are its parts, one job
 * each: the request pool, the per-sequence log, the normal case (section 4.2), checkpoints and
 * garbage collection (4.3), view changes (4.4), state transfer and crash recovery.
 */
package io.rubinbft.bft.protocol;
