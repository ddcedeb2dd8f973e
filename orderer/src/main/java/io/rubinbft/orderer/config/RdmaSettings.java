package io.rubinbft.orderer.config;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Where the {@code rdma} cluster transport runs: rdma-net's {@code RdmaOptions} as the node
 * configuration names them. The defaults fit a single-port RoCE NIC and Soft-RoCE.
 *
 * @param device the RDMA device ({@code ibv_devices}: {@code mlx5_0}, {@code rxe0}), or empty for
 *     the first one; it must carry the cluster listen address and the consenters' hosts
 * @param port the device port those addresses are on (1 on a single-port device)
 * @param gidIndex the GID table entry the replicas' traffic must use, or empty for the one rdma_cm
 *     derives from the address
 */
public record RdmaSettings(Optional<String> device, int port, OptionalInt gidIndex) {}
