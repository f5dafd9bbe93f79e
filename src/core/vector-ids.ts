// Where a screen state's vectors live, one layout for every writer and reader (the design's
// data/embeddings/screens/<component>/<screen_state_id>.npy). A zoom-pyramid crop of the fused
// state vector is the component `state_<anchor>_<zoom>` of the same screen state.

const safe = (id: string) => id.replace(/[^A-Za-z0-9_.-]/g, "_");

/** vector_id of one component of a screen state's embedding. */
export function vectorIdFor(component: string, screenStateId: string): string {
  return `data/embeddings/screens/${component}/${safe(screenStateId)}.npy`;
}

/** vector_id of the fused state vector of a screen state seen through a crop (its top-left or top band at a zoom). */
export function viewVectorIdFor(view: { anchor: string; zoom: number }, screenStateId: string): string {
  return vectorIdFor(`state_${view.anchor}_${view.zoom}`, screenStateId);
}

/** The fused state vector a crop's vector_id belongs to (undefined when the id is no crop's). */
export function wholeStateOfView(vectorId: string): string | undefined {
  const m = /^data\/embeddings\/screens\/state_[^/]+\/([^/]+)$/.exec(vectorId);
  return m ? `data/embeddings/screens/state/${m[1]}` : undefined;
}
