import i18next from "i18next";
import { describe, expect, it, test } from "vitest";
import { resources } from "~/locales";
import { BACKGROUND_COLOUR, buildMapStyle, DEFAULT_CENTRE, DEFAULT_ZOOM, DRAW_MODES, localeCarte, MAP_HEIGHT_PX, MIN_ZOOM, WORLD_BOUNDS } from "./map-settings";

describe("plot map settings", () => {
  it("[B-MAP-08] [B-MAP-14] [B-MAP-15] [B-MAP-16] the map is 400 high, opens on (48.5, 2.2) at zoom 15, zooms out to 3 and stays within the world", () => {
    expect(MAP_HEIGHT_PX).toBe(400);
    expect(DEFAULT_CENTRE).toEqual({ lat: 48.5, lon: 2.2 });
    expect(DEFAULT_ZOOM).toBe(15);
    expect(MIN_ZOOM).toBe(3);
    expect(WORLD_BOUNDS).toEqual([-179.999, -85.051129, 179.999, 85.051129]);
  });

  it("[B-MAP-09] only polygon and marker drawing are offered", () => {
    expect([...DRAW_MODES]).toEqual(["polygon", "point"]);
  });

  it("[B-MAP-17] the style draws the satellite imagery then the labels over a plain background", () => {
    const style = buildMapStyle({
      imageryTiles: "https://tiles.example/ortho/{z}/{x}/{y}.jpg",
      labelsTiles: "https://tiles.example/noms/{z}/{x}/{y}.png",
      attribution: "© IGN",
    });
    expect(style.layers.map((l) => l.id)).toEqual(["fond", "imagerie", "etiquettes"]);
    expect(style.layers[0]).toMatchObject({ type: "background", paint: { "background-color": BACKGROUND_COLOUR } });
    expect(style.sources.imagerie).toMatchObject({ type: "raster", tiles: ["https://tiles.example/ortho/{z}/{x}/{y}.jpg"], attribution: "© IGN" });
    expect(style.sources.etiquettes).toMatchObject({ type: "raster", tiles: ["https://tiles.example/noms/{z}/{x}/{y}.png"] });
  });

  it("without tile sources the map is a plain background, so drawing works offline", () => {
    const style = buildMapStyle({ imageryTiles: null, labelsTiles: null, attribution: "" });
    expect(style.layers.map((l) => l.id)).toEqual(["fond"]);
    expect(buildMapStyle(null).sources).toEqual({});
  });
});

describe("the map library's texts (issue 29)", () => {
  test("[issue29-map] the zoom buttons and the library's other texts are in the interface's language", () => {
    const en = i18next.createInstance();
    const fr = i18next.createInstance();
    void fr.init({ lng: "fr", resources, initAsync: false });
    void en.init({ lng: "en", resources, initAsync: false });
    const francais = localeCarte(fr.t.bind(fr));
    expect(francais["NavigationControl.ZoomIn"]).toBe("Zoom avant");
    expect(francais["NavigationControl.ZoomOut"]).toBe("Zoom arrière");
    expect(localeCarte(en.t.bind(en))["NavigationControl.ZoomOut"]).toBe("Zoom out");
    // Every text is found (none falls back to its key).
    for (const texte of [...Object.values(francais), ...Object.values(localeCarte(en.t.bind(en)))]) expect(texte).not.toMatch(/^carte\./);
  });
});
