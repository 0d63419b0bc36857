//! The status words the controllers write, and what each means to an operator. Values the
//! documents do not list are kept as `Other` rather than refused.

/// `status.status` of a ComputePool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolPhase {
    Running,
    Provisioning,
    Updating,
    Unhealthy,
    Failed,
    Deleting,
    Unknown,
    Other(String),
}

impl PoolPhase {
    pub fn parse(text: &str) -> PoolPhase {
        match text {
            "Running" => PoolPhase::Running,
            "Provisioning" => PoolPhase::Provisioning,
            "Updating" => PoolPhase::Updating,
            "Unhealthy" => PoolPhase::Unhealthy,
            "Failed" => PoolPhase::Failed,
            "Deleting" => PoolPhase::Deleting,
            "Unknown" | "" => PoolPhase::Unknown,
            other => PoolPhase::Other(other.to_owned()),
        }
    }

    pub fn meaning(&self) -> &'static str {
        match self {
            PoolPhase::Running => "the pool's clusters are running",
            PoolPhase::Provisioning => "the cluster is being created",
            PoolPhase::Updating => "the pool's requirements are being applied",
            PoolPhase::Unhealthy => "a cluster of the pool has health issues",
            PoolPhase::Failed => {
                "provisioning or reconciliation failed; workloads cannot select it"
            }
            PoolPhase::Deleting => "the pool is being deleted; workloads cannot select it",
            PoolPhase::Unknown => {
                "cluster health cannot be determined (spoke connectivity or managed cluster availability)"
            }
            PoolPhase::Other(_) => "a status this version of pooldeck does not know",
        }
    }
}

/// `status.paletteClusterStatuses[].allocatedMachinePools[].hosts.<uid>.status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostStatus {
    Initial,
    Provisioning,
    Healthy,
    Unhealthy,
    Failed,
    Deleting,
    Unknown,
    Other(String),
}

impl HostStatus {
    pub fn parse(text: &str) -> HostStatus {
        match text {
            "Initial" => HostStatus::Initial,
            "Provisioning" => HostStatus::Provisioning,
            "Healthy" => HostStatus::Healthy,
            "Unhealthy" => HostStatus::Unhealthy,
            "Failed" => HostStatus::Failed,
            "Deleting" => HostStatus::Deleting,
            "Unknown" | "" => HostStatus::Unknown,
            other => HostStatus::Other(other.to_owned()),
        }
    }
}

/// `status.poolScalingStates.<key>.state` of a ComputePoolEvaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScalingStateKind {
    Idle,
    Scaling,
    Cooldown,
    Aborting,
    Blocked,
    Other(String),
}

impl ScalingStateKind {
    pub fn parse(text: &str) -> ScalingStateKind {
        match text {
            "Idle" => ScalingStateKind::Idle,
            "Scaling" => ScalingStateKind::Scaling,
            "Cooldown" => ScalingStateKind::Cooldown,
            "Aborting" => ScalingStateKind::Aborting,
            "Blocked" => ScalingStateKind::Blocked,
            other => ScalingStateKind::Other(other.to_owned()),
        }
    }

    pub fn meaning(&self) -> &'static str {
        match self {
            ScalingStateKind::Idle => {
                "no scaling in progress; target is compared with count each cycle"
            }
            ScalingStateKind::Scaling => "hosts are being added or removed",
            ScalingStateKind::Cooldown => "waiting for cooldownDuration before the next decision",
            ScalingStateKind::Aborting => {
                "a scale-up exceeded abortDuration; pending hosts are removed, healthy ones kept"
            }
            ScalingStateKind::Blocked => "blocked by another operation on the Compute Pool",
            ScalingStateKind::Other(_) => "a state this version of pooldeck does not know",
        }
    }
}

/// Condition types in provisioning order, with the failure reason the troubleshooting guide
/// pairs with each and what to check.
pub const CONDITION_TYPES: &[(&str, &str, &str)] = &[
    (
        "Validated",
        "ValidationFailed",
        "spec validation failed: check that the ProfileBundle and Settings exist and are Ready",
    ),
    (
        "ClusterDeployed",
        "ClusterDeploymentFailed",
        "Palette cluster deployment failed: check Settings credentials and available edge hosts",
    ),
    (
        "AdminKubeconfigAcquired",
        "KubeconfigFailed",
        "the admin kubeconfig could not be retrieved from the Palette cluster",
    ),
    (
        "SpokeCreated",
        "SpokeCreateFailed",
        "the Spoke resource for the cluster could not be created",
    ),
    (
        "ManagedClusterReady",
        "ManagedClusterNotReady",
        "the OCM ManagedCluster for the Palette cluster is not ready",
    ),
    (
        "HelmReleaseCreated",
        "",
        "the Helm release installing PaletteAI services on the spoke could not be created",
    ),
    (
        "HelmReleaseReady",
        "",
        "the Helm release installing PaletteAI services on the spoke is not ready",
    ),
    (
        "MachinePoolsReady",
        "PoolProvisioningTimedOut",
        "machine pool hosts failed to provision or become healthy",
    ),
    (
        "EnvironmentCreated",
        "EnvironmentFailed",
        "the Environment failed to be created or become ready",
    ),
];
