export { default } from "./forms.mjs";
