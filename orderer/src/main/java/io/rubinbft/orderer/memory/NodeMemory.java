package io.rubinbft.orderer.memory;

/**
 * A node's byte budgets and the one request-pool account all its channels share.
 *
 * @param budgets the byte budgets
 * @param pools the bytes the channels' request pools hold together
 */
public record NodeMemory(MemoryBudgets budgets, PoolBytes pools) {

  /** The budgets of {@code budgets}, with an empty pool account. */
  public static NodeMemory of(MemoryBudgets budgets) {
    return new NodeMemory(budgets, new PoolBytes(budgets.requestPoolBytes()));
  }

  /** Every node's budgets ({@link MemoryBudgets#standard}). */
  public static NodeMemory standard() {
    return of(MemoryBudgets.standard());
  }
}
