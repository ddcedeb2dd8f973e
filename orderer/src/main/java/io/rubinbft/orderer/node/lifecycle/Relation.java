package io.rubinbft.orderer.node.lifecycle;

/** A node's part in a channel, in the participation API's words. */
public enum Relation {
  /** It orders the channel: a member of the consenter set. */
  CONSENTER("consenter"),
  /** It pulls the channel's blocks from the consenters. */
  FOLLOWER("follower");

  private final String word;

  Relation(String word) {
    this.word = word;
  }

  /** The relation as the participation API answers it ({@code consensusRelation}). */
  public String word() {
    return word;
  }
}
