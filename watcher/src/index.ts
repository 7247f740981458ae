/**
 * @retail/watcher: watches over products, their price and stock history, signed webhooks and the
 * change stream (issue 14). The parts land one by one; what is not built yet is not exported.
 */
export {};
