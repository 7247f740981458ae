/**
 * The marketplace-style "page not found" answer of the replay server: the "dogs" page the
 * marketplace serves with HTTP 404 for an unknown product, written by the project (modelled on the
 * marketplace's current error page: logo, search box, "Sorry! We couldn't find that page" image and
 * a dog picture). The upstream classifier recognises it by its title and the dogs link, exactly as it
 * recognises the real one.
 */
export function notFoundPage(host: string): string {
  const site = host.replace(/^www\./, '');
  return `<!doctype html>
<html>
<head>
  <meta charset="utf-8">
  <title>Page Not Found</title>
  <style>#a{background:#232f3e;padding:11px}#g{text-align:center;margin:30px 0}</style>
</head>
<body>
  <a href="/ref=cs_404_logo"><img id="b" src="https://images-na.ssl-images-amazon.com/images/G/01/error/logo._TTD_.png" alt="${escapeHtml(site)}"></a>
  <form id="a" accept-charset="utf-8" action="/s" method="GET" role="search">
    <input id="e" name="field-keywords" placeholder="Search"><input name="ref" type="hidden" value="cs_404_search">
    <input id="f" type="submit" value="Go">
  </form>
  <div id="g">
    <div><a href="/ref=cs_404_link"><img src="https://images-na.ssl-images-amazon.com/images/G/01/error/title._TTD_.png"
      alt="Sorry! We couldn't find that page. Try searching or go to ${escapeHtml(site)}'s home page."></a></div>
    <a href="/dogsofamazon/ref=cs_404_d" target="_blank" rel="noopener noreferrer"><img id="d" alt="Dogs of Amazon"
      src="https://images-na.ssl-images-amazon.com/images/G/01/error/12._TTD_.jpg"></a>
  </div>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
