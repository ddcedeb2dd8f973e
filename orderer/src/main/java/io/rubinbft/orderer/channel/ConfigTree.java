package io.rubinbft.orderer.channel;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import java.util.Optional;
import org.hyperledger.fabric.protos.common.ConfigGroup;
import org.hyperledger.fabric.protos.common.ConfigValue;

/**
 * Reads groups and values out of a config tree by their Fabric path ("/Channel/Orderer"), turning
 * every absence or undecodable value into an {@link IllegalArgumentException} that names the path.
 */
final class ConfigTree {

  private ConfigTree() {}

  static ConfigGroup group(ConfigGroup parent, String parentPath, String name) {
    ConfigGroup group = parent.getGroupsMap().get(name);
    if (group == null) {
      throw new IllegalArgumentException(parentPath + "/" + name + " is missing");
    }
    return group;
  }

  static <T> T value(ConfigGroup group, String groupPath, String key, Parser<T> parser) {
    return optionalValue(group, groupPath, key, parser)
        .orElseThrow(() -> new IllegalArgumentException(groupPath + "/" + key + " is missing"));
  }

  static <T> Optional<T> optionalValue(
      ConfigGroup group, String groupPath, String key, Parser<T> parser) {
    ConfigValue value = group.getValuesMap().get(key);
    if (value == null) {
      return Optional.empty();
    }
    return Optional.of(decode(value.getValue(), groupPath + "/" + key, parser));
  }

  static <T> T decode(ByteString bytes, String what, Parser<T> parser) {
    try {
      return parser.parseFrom(bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(what + " cannot be decoded: " + e.getMessage(), e);
    }
  }
}
