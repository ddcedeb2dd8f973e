package io.rubinbft.bft.message;

/**
 * The sender's request timer expired in the view before {@code view}: it asks to move to {@code
 * view}, without leaving its current view yet. A replica leaves its view (and sends a {@link
 * ViewChange}, which commits it to the prepared state it carries) only once f + 1 replicas complain
 * or ask for higher views, so that at least one correct replica wants the change. A replica cut off
 * from the others thus complains alone and stays in their view, instead of waiting alone in a view
 * no quorum follows (SmartBFT's complaint before the view change). Authenticated by the transport
 * only.
 */
public record Complaint(long view, int sender) implements Message {}
