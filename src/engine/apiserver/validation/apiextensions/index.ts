// Registers the apiextensions group's validators; one import per kind file.
import './custom-resource-definition';
