//! The tour's chapters as data: the guide's sections in its order, each on the demo scenario
//! that plays it, its steps with the keys and the answer, and what the console shows when a
//! step is done. Every key named here is one of the registry's (`commands::BINDINGS`); every
//! pool is in its scenario (a test keeps both true).

use super::{At, Chapter, Done, Step};
use crate::app::Tab;
use crate::domain::diagnosis as guide;

const fn at(namespace: &'static str, name: &'static str) -> At {
    At { namespace, name }
}

/// The chapters, in the guide's order.
pub const CHAPTERS: &[Chapter] = &[
    Chapter {
        title: guide::PROVISIONING,
        scenario: "stuck-provisioning",
        wrong: "Two pools in namespace factory stay Provisioning. The conditions say which \
                phase holds each one.",
        steps: &[
            Step {
                look: "Open new-gpu-pool, the pool that has waited longest.",
                keys: "j/k to its row, Enter",
                answer: "Move the cursor to factory/new-gpu-pool (j and k, or / to filter) and \
                         press Enter: its Overview opens.",
                done: Done::Opened(at("factory", "new-gpu-pool"), None),
            },
            Step {
                look: "Its conditions say which phase failed: Validated is False.",
                keys: "2 (or Tab to Conditions)",
                answer: "Press 2: Validated False, ValidationFailed: the ProfileBundle \
                         factory/gpu-stack is not Ready.",
                done: Done::Opened(at("factory", "new-gpu-pool"), Some(Tab::Conditions)),
            },
            Step {
                look: "Read the doctor's finding: the cause in the guide's words, and the \
                       next step.",
                keys: "7 (Diagnose)",
                answer: "Press 7: the ProfileBundle is not Ready; the fix is on the bundle \
                         (kubectl describe profilebundle gpu-stack --namespace factory), not \
                         the pool.",
                done: Done::Opened(at("factory", "new-gpu-pool"), Some(Tab::Diagnose)),
            },
            Step {
                look: "edge-expansion passed validation: read what holds it instead.",
                keys: "Esc, its row, Enter, 7",
                answer: "Esc back to the list, move to factory/edge-expansion, Enter, then 7: \
                         its cluster cannot deploy because Compute has no available edge host \
                         (workerCompute is empty).",
                done: Done::Opened(at("factory", "edge-expansion"), Some(Tab::Diagnose)),
            },
        ],
        learned: "Provisioning is phases: Validated, then the cluster. The condition that is \
                  False names the phase; the doctor names the cause.",
    },
    Chapter {
        title: guide::VIP,
        scenario: "vip-conflict",
        wrong: "lab-b cannot come up (it turns Failed): its control plane VIP 10.80.0.10 \
                already answers for lab-a, and a VIP cannot change.",
        steps: &[
            Step {
                look: "Open lab-b's Diagnose tab: the doctor names the pool that holds the VIP.",
                keys: "its row, Enter, 7",
                answer: "Move to labs/lab-b, press Enter, then 7: VIP 10.80.0.10 is in use by \
                         labs/lab-a, which is Running.",
                done: Done::Opened(at("labs", "lab-b"), Some(Tab::Diagnose)),
            },
            Step {
                look: "The VIP is immutable: once lab-b shows Failed, recreate it with a free \
                       address.",
                keys: "Esc, e, Tab to Deployment, the VIP, R",
                answer: "Esc, e on lab-b, Tab four times to Deployment, j three times to the \
                         VIP, Enter, R, Enter; Backspace away 10.80.0.10, type 10.80.0.99, \
                         Enter, Tab Tab to Review, Enter, type lab-b, Tab, Enter. Refused as \
                         changed since? The story moved on: Esc, e again, resume the draft.",
                done: Done::VipMovedFrom(at("labs", "lab-b"), "10.80.0.10"),
            },
        ],
        learned: "A VIP is fixed when the pool is made: a conflict is solved by recreating \
                  the newer pool on a free address, never by editing it.",
    },
    Chapter {
        title: guide::GPU,
        scenario: "gpu-quota",
        wrong: "big-train asks for 8 A100s and is refused: its Project's effective cap is \
                lower than its own limit.",
        steps: &[
            Step {
                look: "Read big-train's finding: the caps, and which one wins.",
                keys: "its row, Enter, 7",
                answer: "Open team-b/big-train and press 7: the Tenant caps team-b at 12 \
                         (projectLimits), below the Project's 16; 10 are in use, so 2 are left.",
                done: Done::Opened(at("team-b", "big-train"), Some(Tab::Diagnose)),
            },
            Step {
                look: "See every Project's limits and use side by side.",
                keys: ":projects Enter",
                answer: "Type :projects and Enter: team-b uses 10 of its 16, under the \
                         Tenant's cap of 12.",
                done: Done::Viewing("projects", false),
            },
        ],
        learned: "The lowest cap wins: the Project's limit, the Tenant's projectLimits, and \
                  what the Tenant has left after its reservations.",
    },
    Chapter {
        title: guide::SCALING,
        scenario: "scale-up",
        wrong: "Nothing is broken: my-compute-pool runs hot and scales up. Follow the \
                decision as the guide does.",
        steps: &[
            Step {
                look: "The evaluations: the controller's scaling state per pool.",
                keys: ":evaluations Enter",
                answer: "Type :evaluations and Enter: my-compute-pool's phase, its GPU target \
                         and utilization.",
                done: Done::Viewing("evaluations", false),
            },
            Step {
                look: "Open the pool's Scaling tab: the threshold, the target, the phase.",
                keys: "its row, Enter",
                answer: "Enter on my-project-namespace/my-compute-pool opens its Scaling tab: \
                         once utilization passes 85% the target rises from 8 to 12 (o there \
                         shows its ScalingPolicy, the 85% threshold among its rules).",
                done: Done::Opened(
                    at("my-project-namespace", "my-compute-pool"),
                    Some(Tab::Scaling),
                ),
            },
            Step {
                look: "The pool's events tell each decision: wait there for ScalingUp.",
                keys: "5 (Events)",
                answer: "Press 5 and watch: ScalingUp (GPU target 8 -> 12) comes once \
                         utilization has passed 85%, ScaledUp when the new host is Healthy.",
                done: Done::EventSeen(at("my-project-namespace", "my-compute-pool"), "ScalingUp"),
            },
        ],
        learned: "The evaluation is the controller's reasoning: phase, target and the \
                  metrics behind them; the events say when each decision was made.",
    },
    Chapter {
        title: guide::DELETION,
        scenario: "deletion-blocked",
        wrong: "stuck-pool has been Deleting for 45 minutes: an AIWorkload still references \
                it, so its finalizer stays.",
        steps: &[
            Step {
                look: "Read stuck-pool's finding: what holds the deletion.",
                keys: "its row, Enter, 7",
                answer: "Open vision-lab/stuck-pool and press 7: AIWorkload vision-lab/stale-job \
                         still references it.",
                done: Done::Opened(at("vision-lab", "stuck-pool"), Some(Tab::Diagnose)),
            },
            Step {
                look: "Unblock it, step 1: delete the AIWorkload that names the pool.",
                keys: "u, Tab, Enter",
                answer: "Press u: step 1 deletes vision-lab/stale-job, which names stuck-pool as \
                         its own: Tab, Enter. The Diagnose tab then says it is gone.",
                done: Done::WorkloadsGone(at("vision-lab", "stuck-pool")),
            },
            Step {
                look: "Step 2, the finalizer: read what must hold before it is removed.",
                keys: "u",
                answer: "Press u again: the finalizer is offered 10 minutes after the last \
                         AIWorkload went, and only with the guide's three conditions met (none \
                         left, the controller logs show it stuck, support consulted). Esc \
                         closes it.",
                done: Done::FinalizerAsked(at("vision-lab", "stuck-pool")),
            },
        ],
        learned: "A deletion waits for what references the pool: delete the AIWorkloads that \
                  name it; the finalizer comes last, a while after they are gone, and only \
                  with the controller logs read and support consulted.",
    },
    Chapter {
        title: guide::LONGHORN,
        scenario: "longhorn-replicas",
        wrong: "store-114 has one node and store-207 two, but both ask Longhorn for 3 \
                replicas: their volumes stay Pending.",
        steps: &[
            Step {
                look: "Read store-114's finding: replicas against nodes.",
                keys: "its row, Enter, 7",
                answer: "Open retail-east/store-114 and press 7: longhornDefaultReplicaCount 3 \
                         on a single node.",
                done: Done::Opened(at("retail-east", "store-114"), Some(Tab::Diagnose)),
            },
            Step {
                look: "The count cannot change on a pool: the steps back up the data and \
                       recreate it with 1. Copy store-114's steps as a runbook.",
                keys: "c",
                answer: "Press c on the Diagnose tab: the doctor's steps, in order, as comments \
                         to paste into a ticket.",
                done: Done::Copied("the runbook for store-114"),
            },
        ],
        learned: "Longhorn needs a node per replica, and the count is fixed when the pool is \
                  made: a single-node pool is made with 1, a two-node pool with 2.",
    },
    Chapter {
        title: guide::AIR_GAPPED,
        scenario: "air-gapped-host",
        wrong: "plant7-gpu-2 has been Provisioning for 47 minutes: the agent cannot pull \
                from the plant's registry.",
        steps: &[
            Step {
                look: "line-3-vision's hosts: which one is stuck, and for how long.",
                keys: "its row, Enter, 3",
                answer: "Open plant-7/line-3-vision and press 3: plant7-gpu-2 is Provisioning.",
                done: Done::Opened(at("plant-7", "line-3-vision"), Some(Tab::Hosts)),
            },
            Step {
                look: "The doctor's steps for the host, with good and bad answers.",
                keys: "7",
                answer: "Press 7: the host is named; the steps are run on it, in the guide's \
                         order.",
                done: Done::Opened(at("plant-7", "line-3-vision"), Some(Tab::Diagnose)),
            },
        ],
        learned: "A host stuck past 30 minutes in an air-gapped site is the registry: the \
                  steps run on the host, not the hub.",
    },
    Chapter {
        title: guide::NVIDIA,
        scenario: "nvidia-runtime",
        wrong: "On edge-g1 the GPU Operator's pods stay in Init:CreateContainerError: no \
                runtime for \"nvidia\" is configured.",
        steps: &[
            Step {
                look: "The warnings: the same event, every 15 seconds.",
                keys: ":events Enter, w",
                answer: "Type :events and Enter, then w: only the warnings are left, the \
                         kubelet's on edge-g1 among them.",
                done: Done::Viewing("events", true),
            },
            Step {
                look: "gpu-inference's finding: once, however often the event repeats.",
                keys: ":pools Enter, its row, Enter, 7",
                answer: "Type :pools and Enter, open ml-edge/gpu-inference, press 7: the NVIDIA \
                         runtime on edge-g1, and the steps for the host.",
                done: Done::Opened(at("ml-edge", "gpu-inference"), Some(Tab::Diagnose)),
            },
        ],
        learned: "The runtime is configured on the host (containerd's nvidia runtime); the \
                  hub only reports it.",
    },
];
