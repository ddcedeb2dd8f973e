package io.rubinbft.bft.sim;

import io.rubinbft.bft.BatchPolicy;
import io.rubinbft.bft.Proposal;
import io.rubinbft.bft.Request;
import io.rubinbft.bft.RequestId;
import io.rubinbft.bft.spi.ProposalAssembler;
import io.rubinbft.bft.spi.ProposalVerifier;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@link SimApplication} with membership changes, as the orderer treats Fabric config blocks: a
 * request from the client {@value #ADMIN} whose payload names a new member set ("members:0,1,4")
 * goes ALONE in its proposal, backups refuse one that is not alone, and a proposal holding a set
 * other than the epoch's own ends the epoch (the host's switch rule, answered per epoch from the
 * proposal alone).
 */
public final class MembershipApplication implements ProposalAssembler, ProposalVerifier {

  /** The client that submits membership changes. */
  public static final String ADMIN = "admin";

  private static final String PREFIX = "members:";
  private static final Pattern WELL_FORMED = Pattern.compile("members:[0-9]{1,2}(,[0-9]{1,2})*");

  private final SimApplication blocks = new SimApplication();
  private final List<Integer> members;

  /** The application of an epoch whose members (stable node ids, ascending) are {@code members}. */
  public MembershipApplication(List<Integer> members) {
    this.members = List.copyOf(members);
  }

  /** A request that changes the member set to {@code members} (stable node ids, ascending). */
  public static Request change(String key, List<Integer> members) {
    String payload = PREFIX + String.join(",", members.stream().map(String::valueOf).toList());
    return new Request(new RequestId(ADMIN, key), payload.getBytes(StandardCharsets.UTF_8));
  }

  /** The member set a proposal switches to, if it holds a well-formed membership change. */
  public static Optional<List<Integer>> membersIn(Proposal proposal) {
    return proposal.requests().stream()
        .filter(MembershipApplication::isChange)
        .findFirst()
        .flatMap(MembershipApplication::parse);
  }

  private static boolean isChange(Request request) {
    return request.id().client().equals(ADMIN);
  }

  private static Optional<List<Integer>> parse(Request request) {
    String text = new String(request.payload(), StandardCharsets.UTF_8);
    if (!WELL_FORMED.matcher(text).matches()) {
      return Optional.empty();
    }
    return Optional.of(
        Arrays.stream(text.substring(PREFIX.length()).split(","))
            .map(Integer::valueOf)
            .sorted()
            .distinct()
            .toList());
  }

  @Override
  public byte[] assemble(long sequence, List<Request> batch, Proposal previous) {
    return blocks.assemble(sequence, batch, previous);
  }

  @Override
  public BatchPolicy batchPolicy(Proposal previous, BatchPolicy configured) {
    return new BatchPolicy(
        configured.maxCount(),
        configured.maxBytes(),
        request ->
            isChange(request) ? BatchPolicy.Placement.ALONE : BatchPolicy.Placement.WITH_OTHERS);
  }

  @Override
  public boolean endsEpoch(Proposal proposal) {
    return membersIn(proposal).filter(next -> !next.equals(members)).isPresent();
  }

  @Override
  public Optional<String> invalidReason(Proposal proposal, Proposal previous) {
    boolean change = proposal.requests().stream().anyMatch(MembershipApplication::isChange);
    if (change && proposal.requests().size() > 1) {
      return Optional.of("membership change not alone at " + proposal.sequence());
    }
    if (change && membersIn(proposal).isEmpty()) {
      return Optional.of("malformed membership change at " + proposal.sequence());
    }
    return blocks.invalidReason(proposal, previous);
  }
}
