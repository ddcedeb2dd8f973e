package io.rubinbft.orderer.memory;

/**
 * A node's byte budgets and the heap its channels must fit at their worst (a join beyond it is
 * refused: orderer/docs/MEMORY.md "Sizing").
 *
 * @param budgets the byte budgets
 * @param heapBytes the heap the node's channels must fit, this JVM's ceiling for a running node
 */
public record NodeMemory(MemoryBudgets budgets, long heapBytes) {

  /** The budgets of {@code budgets} for a heap of {@code heapBytes}. */
  public static NodeMemory of(MemoryBudgets budgets, long heapBytes) {
    return new NodeMemory(budgets, heapBytes);
  }

  /** Every node's budgets ({@link MemoryBudgets#standard}) and this JVM's heap ceiling. */
  public static NodeMemory standard() {
    return of(MemoryBudgets.standard(), HeapSize.jvmHeapBytes());
  }
}
