/**
 * The messages replicas exchange (Castro-Liskov OSDI'99 section 4) and the canonical bytes their
 * signatures cover. Every message names its sender; the transport authenticates it (MAC), and the
 * ones shown to third parties carry signatures.
 */
package io.rubinbft.bft.message;
