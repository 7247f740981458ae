import { describe, expect, it } from 'vitest';
import { loadIndexedPage } from '../common/page.js';
import { parseRefinements } from './refinements.js';

describe('search refinements', () => {
  it('groups options under the heading above them, even when groups share a container (2026 layout)', () => {
    const html = `<div id="s-refinements">
      <div role="group" id="reviewsRefinements"><div role="heading"><span class="a-size-base a-color-base puis-bold-weight-text">Customer Reviews</span></div>
        <a href="/s?k=x&amp;rh=p_72%3A1248903011&amp;ref=sr_nr_p_72_1" aria-label="Apply 4 Stars &amp; Up filter"><i class="a-icon a-icon-star-medium"><span class="a-icon-alt">4 Stars</span></i><span class="a-size-small a-color-base">&amp; Up</span></a></div>
      <div role="group" id="priceRefinements"><span class="a-size-base a-color-base puis-bold-weight-text">Price</span>
        <a href="/s?k=x&amp;rh=p_36%3A-1500"><span class="a-size-base a-color-base">Up to $15</span></a>
        <div role="heading"><span class="a-size-base a-color-base puis-bold-weight-text">Deals &amp; Discounts</span></div>
        <a href="/s?k=x&amp;rh=p_n_deal_type%3A23566064011"><span class="a-size-base a-color-base">Today's Deals</span></a>
        <a href="javascript:void(0)"><span class="a-size-base">See more</span></a></div>
      <div role="group"><div role="heading"><span class="puis-bold-weight-text">Popular Shopping Ideas</span></div>
        <a href="/s?k=usb+c+charger&amp;ref=sr_nr_p_rag_0&amp;qid=1"><span class="a-size-base a-color-base">Usb-c</span></a></div>
    </div>`;
    expect(parseRefinements(loadIndexedPage(html))).toEqual([
      { name: 'Customer Reviews', options: [{ name: '4 Stars & Up', value: 'p_72:1248903011' }] },
      { name: 'Price', options: [{ name: 'Up to $15', value: 'p_36:-1500' }] },
      { name: 'Deals & Discounts', options: [{ name: "Today's Deals", value: 'p_n_deal_type:23566064011' }] },
      { name: 'Popular Shopping Ideas', options: [{ name: 'Usb-c', value: '/s?k=usb+c+charger' }] },
    ]);
  });

  it('reads the 2018–19 left navigation (h3/h4 headings, category names as h4 inside links)', () => {
    const html = `<div id="leftNavContainer"><h3>Ergebnisse anzeigen für</h3>
      <ul><li><a class="s-ref-text-link" href="/s/ref=sr_nr_n_0?rh=n%3A16435051%2Ck%3Aflasche"><h4 class="a-text-bold">Sport &amp; Freizeit</h4></a></li></ul>
      <h4>Durchschn. Kundenrezension</h4>
      <ul><li><a href="/s/ref=sr_nr_p_72_0?rh=i%3Aaps%2Cp_72%3A419117031"><i class="a-icon a-icon-star"><span class="a-icon-alt">4 Sterne und mehr</span></i><span class="a-size-small a-color-base">&amp; mehr</span></a></li></ul></div>`;
    expect(parseRefinements(loadIndexedPage(html))).toEqual([
      { name: 'Ergebnisse anzeigen für', options: [{ name: 'Sport & Freizeit', value: 'n:16435051,k:flasche' }] },
      { name: 'Durchschn. Kundenrezension', options: [{ name: '4 Sterne und mehr', value: 'i:aps,p_72:419117031' }] },
    ]);
  });
});
