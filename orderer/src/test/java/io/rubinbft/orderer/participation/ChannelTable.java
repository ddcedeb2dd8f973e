package io.rubinbft.orderer.participation;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.hyperledger.fabric.protos.common.Block;
import org.hyperledger.fabric.protos.common.ChannelHeader;
import org.hyperledger.fabric.protos.common.Envelope;
import org.hyperledger.fabric.protos.common.Payload;

/** Channels by name, each at height 1 after its join, as a freshly joined Fabric orderer. */
final class ChannelTable implements ChannelParticipation {

  private final Map<String, ChannelInfo> joined = new TreeMap<>();
  private final Map<String, List<ByteString>> chains = new TreeMap<>();

  /** The updates received, in order. */
  final List<Envelope> updates = new ArrayList<>();

  /** Appends blocks after a channel's join block, as ordering would. */
  synchronized void append(String channel, ByteString block) {
    chains.get(channel).add(block);
  }

  /** Records the update: ordering is not under test here. */
  @Override
  public synchronized ChannelInfo update(String channel, Envelope update)
      throws ParticipationException {
    ChannelInfo info = joined.get(channel);
    if (info == null) {
      throw new ParticipationException(
          ParticipationException.Reason.NOT_A_CHANNEL, "channel does not exist");
    }
    updates.add(update);
    return info;
  }

  @Override
  public synchronized ByteString block(String channel, BlockId block)
      throws ParticipationException {
    List<ByteString> chain = chains.get(channel);
    if (chain == null) {
      throw new ParticipationException(
          ParticipationException.Reason.NOT_FOUND, "channel does not exist");
    }
    try {
      long number = block.numberIn(Block.parseFrom(chain.getLast()));
      if (number < 0 || number >= chain.size()) {
        throw new ParticipationException(
            ParticipationException.Reason.NOT_FOUND, "no block " + number);
      }
      return chain.get((int) number);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public synchronized List<String> channelNames() {
    return List.copyOf(joined.keySet());
  }

  @Override
  public synchronized Optional<ChannelInfo> info(String channel) {
    return Optional.ofNullable(joined.get(channel));
  }

  @Override
  public synchronized ChannelInfo join(Block configBlock, byte[] configBlockBytes)
      throws ParticipationException {
    String name = channelId(configBlock);
    if (joined.containsKey(name)) {
      throw new ParticipationException(
          ParticipationException.Reason.ALREADY_EXISTS, "channel already exists");
    }
    ChannelInfo info = new ChannelInfo(name, ChannelInfo.url(name), "consenter", "active", 1);
    joined.put(name, info);
    chains.put(name, new ArrayList<>(List.of(ByteString.copyFrom(configBlockBytes))));
    return info;
  }

  @Override
  public synchronized void remove(String channel) throws ParticipationException {
    chains.remove(channel);
    if (joined.remove(channel) == null) {
      throw new ParticipationException(
          ParticipationException.Reason.NOT_FOUND, "channel does not exist");
    }
  }

  private static String channelId(Block block) throws ParticipationException {
    try {
      Payload payload =
          Payload.parseFrom(Envelope.parseFrom(block.getData().getData(0)).getPayload());
      return ChannelHeader.parseFrom(payload.getHeader().getChannelHeader()).getChannelId();
    } catch (InvalidProtocolBufferException | IndexOutOfBoundsException e) {
      throw new ParticipationException(ParticipationException.Reason.BAD_REQUEST, e.getMessage());
    }
  }
}
