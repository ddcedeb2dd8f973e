/** Fabric's Broadcast stream: one answer per envelope, in order, with bounded buffering. */
package io.rubinbft.orderer.broadcast;
