// Registers the discovery group's validators; one import per kind file.
import './endpoint-slice';
