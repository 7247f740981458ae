import { describe, expect, it } from 'vitest';
import { marketplaceByCode } from '../marketplaces/index.js';
import { decodeShownText, parseVariantsPage } from './variants.js';

/** A product page trimmed to the twister's inline data, as 2017–2026 pages embed it. */
const TWISTER_PAGE = `<html><body><div id="dp"><span id="productTitle">Shirt</span></div>
<script type="text/javascript">P.register('twister-js-init-dpx-data', function() { var dataToReturn = {
  "currentAsin" : "B0FXVAR002", "parentAsin" : "B0FXVARPAR",
  "dimensionToAsinMap" : {"0_0":"B0FXVAR001","0_1":"B0FXVAR002","1_0":"B0FXVAR003"},
  "dimensions" : ["size_name","color_name"],
  "dimensionValuesDisplayData" : {"B0FXVAR001":["M","Wei&#xc3;&#x9f;"],"B0FXVAR002":["M","Blau \\"Navy\\""],"B0FXVAR003":["L","Wei&#xc3;&#x9f;"]},
  "variationDisplayLabels" : {"size_name":"Größe\\r\\n","color_name":"Farbe"} }; return dataToReturn; });</script>
</body></html>`;

describe('variants from the twister data', () => {
  it('lists every child with its dimension values and marks the current one', () => {
    const { variants } = parseVariantsPage(TWISTER_PAGE, { marketplace: marketplaceByCode('DE'), asin: 'B0FXVAR001' });
    expect(variants).toEqual([
      { asin: 'B0FXVAR001', url: 'https://www.amazon.de/dp/B0FXVAR001', text: 'M, Weiß', isCurrent: false, attributes: [{ name: 'Größe', value: 'M' }, { name: 'Farbe', value: 'Weiß' }] },
      { asin: 'B0FXVAR002', url: 'https://www.amazon.de/dp/B0FXVAR002', text: 'M, Blau "Navy"', isCurrent: true, attributes: [{ name: 'Größe', value: 'M' }, { name: 'Farbe', value: 'Blau "Navy"' }] },
      { asin: 'B0FXVAR003', url: 'https://www.amazon.de/dp/B0FXVAR003', text: 'L, Weiß', isCurrent: false, attributes: [{ name: 'Größe', value: 'L' }, { name: 'Farbe', value: 'Weiß' }] },
    ]);
  });

  it('falls back to the rendered swatches and answers an empty list for a product without variations', () => {
    const swatches = `<div id="twister"><ul><li data-defaultasin="B0FXSWAT01" title="Click to select Red"><img alt="Red"></li><li data-defaultasin="B0FXSWAT02" title="Click to select Blue"></li></ul></div>`;
    const { variants } = parseVariantsPage(swatches, { marketplace: marketplaceByCode('US'), asin: 'B0FXSWAT01' });
    expect(variants!.map((v) => [v.asin, v.isCurrent])).toEqual([['B0FXSWAT01', true], ['B0FXSWAT02', false]]);
    expect(parseVariantsPage('<div id="dp"></div>', { marketplace: marketplaceByCode('US'), asin: 'B0FXSWAT01' }).variants).toEqual([]);
  });

  it('adds the prices the 2023+ inline twister shows on its swatches', () => {
    const page = TWISTER_PAGE.replace(
      '</body>',
      `<ul><li data-asin="B0FXVAR001" class="swatch-list-item-text inline-twister-swatch"><div class="apex-core-price-identifier"><span class="aok-offscreen apex-pricetopay-accessibility-label"> 24,99 € with 10 percent savings</span><span class="a-price a-text-price apex-pricetopay-value"><span class="a-offscreen"></span><span aria-hidden="true">24,99\u00a0€</span></span></div></li>
       <li data-asin="B0FXVAR003" class="swatch-list-item-text inline-twister-swatch"><span class="a-size-base">Derzeit nicht verfügbar</span></li></ul></body>`,
    );
    const { variants } = parseVariantsPage(page, { marketplace: marketplaceByCode('DE'), asin: 'B0FXVAR001' });
    expect(variants![0]!.price).toEqual({ symbol: '€', value: 24.99, currency: 'EUR', display: '24,99\u00a0€' });
    expect(variants![2]!.price).toBeUndefined();
  });

  it('decodes entities and byte-escaped UTF-8 in shown values', () => {
    expect(decodeShownText('Wei&#xc3;&#x9f; + Schwarz')).toBe('Weiß + Schwarz');
    expect(decodeShownText('Tom &amp; Jerry')).toBe('Tom & Jerry');
    expect(decodeShownText('Café')).toBe('Café');
  });
});
