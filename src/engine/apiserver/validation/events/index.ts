// Registers the events group's validators; one import per kind file.
import './event';
