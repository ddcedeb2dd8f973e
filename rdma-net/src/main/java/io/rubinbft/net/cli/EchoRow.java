package io.rubinbft.net.cli;

/**
 * The three measurements of one message size.
 *
 * @param messageBytes the message size
 * @param shm the selector over the shared-memory verbs transport
 * @param tcp the selector over the tcp transport
 * @param nio the plain java.nio baseline
 */
record EchoRow(int messageBytes, EchoResult shm, EchoResult tcp, EchoResult nio) {}
