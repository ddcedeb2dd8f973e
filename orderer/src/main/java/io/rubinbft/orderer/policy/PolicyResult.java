package io.rubinbft.orderer.policy;

/** Whether a policy was satisfied and, if not, Fabric's text for why. */
public record PolicyResult(boolean satisfied, String failure) {

  private static final PolicyResult SATISFIED = new PolicyResult(true, "");

  public static PolicyResult satisfiedResult() {
    return SATISFIED;
  }

  public static PolicyResult failed(String failure) {
    return new PolicyResult(false, failure);
  }
}
