// Free of imports: the phone's map and settings read these without the schemas (zod) chunk.

/**
 * The responses map (`GET /survey/:id/map`). Below POINTS_ZOOM the server groups the points of a
 * square grid cell (CLUSTER_CELL_PX screen pixels at the asked zoom) into one cluster; a cell with
 * one response is answered as that response. From POINTS_ZOOM up every response is its own point.
 */
export const MapLimits = {
  /** The zoom from which responses are answered one by one (about a street: 4.8 m a pixel at the equator). */
  pointsZoom: 15,
  maxZoom: 22,
  /** A cluster cell's side in screen pixels (a 256-pixel tile holds 4 x 4 cells). */
  clusterCellPx: 64,
  /** The most grid cells one answer groups into: a bbox too wide for its zoom is read with larger cells. */
  maxCells: 4096,
  /** The most single points one answer carries; more and `truncated` is true (zoom in). */
  maxPoints: 5000,
  /**
   * The grid cell, in degrees, that is the finest place a reader kept from personal data (an
   * analyst) learns of a response: 1/16 degree is about 6.9 km north to south and 6.7 to 6.9 km
   * east to west across Nigeria (4-14 N), a ward rather than a street. Coarser views use cells of
   * this size times a power of two, so every cell is a union of whole base cells and no two views
   * can be overlaid to narrow a response down further.
   */
  hiddenCellDegrees: 1 / 16,
  /** Field users on one page of the team map. */
  teamPage: 500,
  /** A basemap archive (PMTiles): a state's extract to street level fits (Lagos, vector, z0-15: about 60 MB). */
  maxBasemapBytes: 200 * 1024 * 1024,
  /** Days of the field user's own map. */
  ownDays: 7,
  /**
   * The most basemap bytes one phone keeps for offline maps ("keep the map of my area"): the
   * largest archive an organization may upload, so any one area fits; the browser's free space is
   * checked as well.
   */
  keptBasemapBytes: 200 * 1024 * 1024,
} as const;
