package io.rubinbft.net.security;

/**
 * What each side declares in its HELLO about the frames it accepts.
 *
 * @param receiveSlots receive slots posted for the peer (the initial credit)
 * @param maxFrameBytes largest frame, header and tag included
 * @param maxMessageBytes largest reassembled message
 */
public record HelloParameters(int receiveSlots, int maxFrameBytes, int maxMessageBytes) {}
