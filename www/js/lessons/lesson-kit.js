// Small pieces the lesson tables share (lesson-data.js and engine-lessons.js).

/** Sets one field of the network link both ways (the rail's network controls move both). */
export const both = (p, field, value) => {
  p.network.downlink[field] = value;
  p.network.uplink[field] = value;
};

/** "Smooth play": at most one frame in twenty past the newest snapshot (the project's reading of the article). */
export const SMOOTH_PCT = 5;
