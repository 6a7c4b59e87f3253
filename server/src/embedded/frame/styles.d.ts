/** A stylesheet the frame page's Vite build bundles when a module imports it (the secure views' styles). */
declare module "*.css"
