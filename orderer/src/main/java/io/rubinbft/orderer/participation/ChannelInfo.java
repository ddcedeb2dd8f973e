package io.rubinbft.orderer.participation;

/**
 * A channel as the participation API shows it; field order is Fabric's JSON order.
 *
 * @param name the channel id
 * @param url its resource path
 * @param consensusRelation consenter, follower, config-tracker or other
 * @param status active, onboarding, inactive or failed
 * @param height the ledger height (number of blocks)
 */
public record ChannelInfo(
    String name, String url, String consensusRelation, String status, long height) {

  /** The resource path of channel {@code name}. */
  public static String url(String name) {
    return ParticipationHandler.CHANNELS_PATH + "/" + name;
  }
}
