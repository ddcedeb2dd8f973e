package io.rubinbft.orderer.block;

import com.google.protobuf.ByteString;
import java.util.Optional;

/**
 * The envelope-level half of checking a proposed block, supplied by the validation package:
 * envelope structure, channel id, header type, size, creator certificate, signature and the
 * /Channel/Writers policy, timestamp bounds. An envelope this replica already validated at
 * Broadcast ingress may be answered from that result instead of being verified again.
 */
@FunctionalInterface
public interface EnvelopeValidator {

  /** Why {@code envelope} must not be ordered on this channel, or empty when it may. */
  Optional<String> invalidReason(ByteString envelope);
}
