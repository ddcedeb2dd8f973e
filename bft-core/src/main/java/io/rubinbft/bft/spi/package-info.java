/**
 * The narrow interfaces bft-core needs from its host (docs/ARCHITECTURE.md principle 11): the
 * application assembles and verifies proposals, and signs them; the crypto provider hashes and
 * signs protocol votes. Implementations must be deterministic given their inputs and must not throw
 * on bad input from peers: they answer "invalid" instead.
 */
package io.rubinbft.bft.spi;
