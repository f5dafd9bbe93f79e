import type { Frame } from "../frame.js";
import type { ElementProposal } from "./element-proposer.js";

/**
 * Proposes boxes for the places a detector's other evidence may leave empty: elements too wide for its main pass, seen
 * on the screen scaled down, where their boxes are placed less exactly (src/perception/learned-detector.ts, its coarse
 * pass). A detector adds them only where none of its other elements stands (src/perception/learned-fusion.ts `fillIns`).
 */
export interface FillProposer {
  proposeFills(frame: Frame, signal?: AbortSignal): Promise<ElementProposal[]>;
}
